import { request } from "node:http";
import { describe, expect, it } from "vitest";
import type { ApiClient } from "../support/api";
import { tableCounts } from "../support/fixtures";
import { testWorld, WEB_TEAM } from "../support/world";

// ana owns web, where bo is a member and vi a viewer.
const world = testWorld(WEB_TEAM);
const { databaseUrl, as, tokens } = world;
const server = () => world.server;
const [ana, bo, viewer] = [as("ana"), as("bo"), as("vi")];

async function propose(client: ApiClient, body: Record<string, unknown>) {
  return client("POST", "/api/proposals", { kind: "pattern", ...body });
}

describe("proposals", () => {
  it("stores a candidate, then merges a near-duplicate into it, raising its confidence", async () => {
    const first = await propose(ana, { content: "Always run the tests before committing.", confidence: 0.6, source: "s-1" });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ merged: false, proposal: { status: "pending", confidence: 0.6, mergedCount: 0 } });
    const again = await propose(ana, { content: "always run tests before commit", confidence: 0.5, source: "s-2" });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ merged: "proposal", proposal: { id: first.json.proposal.id, confidence: 0.8, mergedCount: 1 } });
    expect((await ana("GET", "/api/proposals")).json.items).toHaveLength(1);
    // A session's proposal sent again (a hook's retry after an answer it never got: stored, then a 503
    // past the database's time limit) is the same sighting, not a second one.
    const once = await propose(ana, { content: "Seed the staging database before the e2e run.", confidence: 0.6, source: "s-3" });
    expect(once.status).toBe(201);
    const retried = await propose(ana, { content: "Seed the staging database before the e2e run.", confidence: 0.6, source: "s-3" });
    expect(retried.json).toMatchObject({ merged: "proposal", proposal: { id: once.json.proposal.id, confidence: 0.6, mergedCount: 0 } });
    // Someone else's personal proposal is not a twin.
    expect((await propose(bo, { content: "Always run the tests before committing." })).status).toBe(201);
  });

  it("does not store a near-duplicate of an existing learning", async () => {
    await ana("POST", "/api/learnings", { kind: "insight", content: "Feature flags live in config/flags.yaml", confirmed: true });
    const before = await tableCounts(databaseUrl);
    const res = await propose(ana, { kind: "insight", content: "feature flags live in config/flags.yaml!" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ merged: "learning", proposal: null, learning: { content: "Feature flags live in config/flags.yaml" } });
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("accepts (with edited content) into a confirmed learning, and rejects", async () => {
    const p = (await propose(ana, { content: "Prefer server components for pages", project: "web" })).json.proposal;
    const res = await ana("POST", `/api/proposals/${p.id}/accept`, { content: "Prefer server components for dashboard pages" });
    expect(res.status).toBe(200);
    expect(res.json.proposal).toMatchObject({ status: "accepted", learningId: res.json.learning.id, decidedAt: expect.any(String) });
    expect(res.json.learning).toMatchObject({ content: "Prefer server components for dashboard pages", confirmed: true, project: "web" });
    expect((await ana("POST", `/api/proposals/${p.id}/accept`)).status).toBe(409);

    const q = (await propose(ana, { content: "Use tabs for indentation" })).json.proposal;
    const rejected = await ana("POST", `/api/proposals/${q.id}/reject`);
    expect(rejected.json).toMatchObject({ proposal: { status: "rejected" }, learning: null });
    expect((await ana("GET", "/api/proposals?status=rejected")).json.items.map((x: { id: string }) => x.id)).toContain(q.id);
    const plain = (await propose(ana, { content: "Name branches after the issue number" })).json.proposal;
    expect((await ana("POST", `/api/proposals/${plain.id}/accept`)).json.learning.content).toBe("Name branches after the issue number");
  });

  it("bulk review applies every decision in one transaction, or none", async () => {
    const ids: string[] = [];
    for (const content of ["Keep PRs under 400 lines", "Write the migration before the code", "Document every env variable"]) {
      ids.push((await propose(ana, { content, project: "web" })).json.proposal.id);
    }
    const before = await tableCounts(databaseUrl);
    const failing = await ana("POST", "/api/proposals/review", [
      { id: ids[0], action: "accept" },
      { id: "does-not-exist", action: "reject" },
    ]);
    expect(failing.status).toBe(404);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect((await ana("GET", "/api/proposals?project=web")).json.items).toHaveLength(3);

    const ok = await ana("POST", "/api/proposals/review", { items: [
      { id: ids[0], action: "accept" },
      { id: ids[1], action: "reject" },
      { id: ids[2], action: "accept", content: "Document every environment variable in the README" },
    ] });
    expect(ok.status).toBe(200);
    expect(ok.json.items.map((i: { proposal: { status: string } }) => i.proposal.status)).toEqual(["accepted", "rejected", "accepted"]);
    expect(ok.json.items[2].learning.content).toBe("Document every environment variable in the README");
    expect((await ana("GET", "/api/proposals?project=web")).json.items).toHaveLength(0);
  });

  it("project proposals are the members' to review; viewers and outsiders may not", async () => {
    const p = (await propose(ana, { content: "Cache the lockfile in CI", project: "web" })).json.proposal;
    expect((await viewer("GET", "/api/proposals?project=web")).json.items.map((x: { id: string }) => x.id)).toContain(p.id);
    expect((await viewer("POST", `/api/proposals/${p.id}/accept`)).status).toBe(403);
    expect((await viewer("POST", "/api/proposals", { kind: "pattern", content: "x", project: "web" })).status).toBe(403);
    const personal = (await propose(ana, { content: "I like dark mode" })).json.proposal;
    expect((await bo("POST", `/api/proposals/${personal.id}/reject`)).status).toBe(404);
    expect((await bo("POST", `/api/proposals/${p.id}/reject`)).status).toBe(200);
  });

  it("the context lists pending proposals in the review queue's default order: most confident first", async () => {
    // vi's personal queue, proposed neither in confidence order nor against it.
    for (const [content, confidence] of [["Squash fixups before review", 0.3], ["Name branches after tickets", 0.9], ["Pin the Node version", 0.6]] as const) {
      expect((await propose(viewer, { content, confidence })).status).toBe(201);
    }
    const context: string = (await viewer("GET", "/api/context")).json.context;
    const listed = context.split("## Pending proposals")[1]!.split("\n").filter((line) => line.startsWith("- "));
    expect(listed.map((line) => line.match(/" (\d\.\d\d)$/)?.[1])).toEqual(["0.90", "0.60", "0.30"]);
  });

  it.each([
    { path: "/api/proposals", body: { kind: "pattern", content: "x", confidence: 1.5 } },
    { path: "/api/proposals", body: { kind: "hunch", content: "x" } },
    { path: "/api/proposals", body: { content: "x" } },
    { path: "/api/proposals/review", body: [] },
    { path: "/api/proposals/review", body: [{ id: "a", action: "maybe" }] },
    { path: "/api/proposals/review", body: [{ id: "a", action: "accept" }, { id: "a", action: "reject" }] },
    { path: "/api/proposals/ID/accept", body: { content: "" } },
  ])("POST $path with a bad body → 400, nothing changes", async ({ path, body }) => {
    const target = (await ana("GET", "/api/proposals")).json.items[0]?.id ?? "none";
    const before = await tableCounts(databaseUrl);
    const res = await ana("POST", path.replace("ID", target), body);
    expect(res.status).toBe(400);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });
});

/** A POST exactly as given: Content-Length only when `length` says so, else the body is sent chunked. */
function rawPost(url: string, token: string, options: { type?: string; body: string; length: boolean }): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (options.type) headers["content-type"] = options.type;
    // Node would send an empty body as Content-Length: 0; a streaming client sends it chunked.
    headers[options.length ? "content-length" : "transfer-encoding"] = options.length ? String(Buffer.byteLength(options.body)) : "chunked";
    const req = request(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(options.body || undefined);
  });
}

describe("accept's body is optional", () => {
  const JSON_TYPE = "application/json";
  it.each<{ what: string; type?: string; body: string; length: boolean; status: number }>([
    { what: "JSON type, empty body, chunked", type: JSON_TYPE, body: "", length: false, status: 200 },
    { what: "JSON type, Content-Length: 0", type: JSON_TYPE, body: "", length: true, status: 200 },
    { what: "JSON type, blanks only", type: JSON_TYPE, body: " \n", length: true, status: 200 },
    { what: "no type, empty body", body: "", length: false, status: 200 },
    { what: "text type, empty body", type: "text/plain", body: "", length: true, status: 200 },
    { what: "JSON type, {}", type: JSON_TYPE, body: "{}", length: true, status: 200 },
    { what: "JSON type, malformed", type: JSON_TYPE, body: "{", length: true, status: 400 },
    { what: "JSON type, malformed, chunked", type: JSON_TYPE, body: "{\"content\":", length: false, status: 400 },
    { what: "JSON type, unknown field", type: JSON_TYPE, body: "{\"nope\":1}", length: true, status: 400 },
    { what: "text type, a body", type: "text/plain", body: "edited", length: true, status: 415 },
  ])("$what → $status", async ({ type, body, length, status }) => {
    const proposed = await propose(ana, { content: `Optional body probe ${Math.random()}: keep migrations reversible` });
    const res = await rawPost(`${server().url}/api/proposals/${proposed.json.proposal.id}/accept`, tokens.ana!, { type, body, length });
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    if (status === 200) expect(res.json.proposal.status).toBe("accepted");
    else expect(res.json).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
  });
});
