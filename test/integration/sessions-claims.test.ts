import { beforeAll, describe, expect, it } from "vitest";
import { tableCounts } from "../support/fixtures";
import { sessionsTestWorld } from "../support/sessions-world";

// Claiming, completing and releasing one session document, and who may (see sessionsTestWorld).
const { world, agent, queue, statusInDb } = sessionsTestWorld();
const { databaseUrl, as } = world;
let betaSessionId = "";

beforeAll(async () => {
  betaSessionId = (await queue("cy", "beta", "---\nid: beta-secret\n---\nBeta work")).id;
});

describe("claiming, completing and releasing", () => {
  it("claim → 200 with the document; a second claim → 409 naming the holder and since when", async () => {
    await queue("ana", "alpha", "---\nid: c-one\n---\nwork");
    const res = await as("bo")("POST", "/api/sessions/c-one/claim");
    expect(res.status, res.text).toBe(200);
    expect(res.json.session).toMatchObject({
      id: "c-one",
      status: "doing",
      markdown: "---\nid: c-one\n---\nwork",
      claimedBy: { name: "bo", email: "bo@example.com" },
      claimedAt: expect.any(String),
      completedAt: null,
    });
    const second = await as("ana")("POST", "/api/sessions/c-one/claim");
    expect(second.status).toBe(409);
    expect(second.json.error.message).toContain("bo <bo@example.com>");
    expect(second.json.error.message).toContain(res.json.session.claimedAt);
    // The holder's second agent is refused too: two agents never both get it.
    const own = await as("bo")("POST", "/api/sessions/c-one/claim");
    expect(own.status).toBe(409);
    expect(own.json.error.message).toContain("you");
  });

  it("only the claimer or an owner may complete or release (403 for another member)", async () => {
    await queue("ana", "alpha", "---\nid: c-two\n---\nwork");
    expect((await as("dee")("POST", "/api/sessions/c-two/claim")).status).toBe(200);
    for (const verb of ["complete", "release"]) {
      const res = await as("bo")("POST", `/api/sessions/c-two/${verb}`);
      expect(res.status).toBe(403);
      expect(res.json.error.message).toContain("dee");
    }
    expect(await statusInDb("c-two")).toBe("doing");
    const released = await as("ana")("POST", "/api/sessions/c-two/release");
    expect(released.status).toBe(200);
    expect(released.json.session).toMatchObject({ status: "todo", claimedBy: null, claimedAt: null });
    expect((await as("bo")("POST", "/api/sessions/c-two/claim")).status).toBe(200);
    const done = await as("bo")("POST", "/api/sessions/c-two/complete");
    expect(done.status).toBe(200);
    expect(done.json.session).toMatchObject({ status: "done", claimedBy: { name: "bo" }, completedAt: expect.any(String) });
  });

  it("an owner may complete someone else's claim", async () => {
    await queue("ana", "alpha", "---\nid: c-three\n---\nwork");
    expect((await as("bo")("POST", "/api/sessions/c-three/claim")).status).toBe(200);
    expect((await as("ana")("POST", "/api/sessions/c-three/complete")).status).toBe(200);
  });

  it.each([
    { name: "claim a done document", setup: ["claim", "complete"], verb: "claim", status: 409, message: /done/ },
    { name: "complete a queued document", setup: [], verb: "complete", status: 409, message: /todo/ },
    { name: "release a queued document", setup: [], verb: "release", status: 409, message: /todo/ },
    { name: "complete twice", setup: ["claim", "complete"], verb: "complete", status: 409, message: /done/ },
    { name: "release a done document", setup: ["claim", "complete"], verb: "release", status: 409, message: /done/ },
    { name: "release, then claim again", setup: ["claim", "release"], verb: "claim", status: 200, message: undefined },
  ])("$name → $status", async ({ setup, verb, status, message }) => {
    const { id } = await queue("ana", "alpha", "work");
    for (const step of setup) expect((await as("bo")("POST", `/api/sessions/${id}/${step}`)).status).toBe(200);
    const before = await statusInDb(id);
    const res = await as("bo")("POST", `/api/sessions/${id}/${verb}`);
    expect(res.status).toBe(status);
    if (message) {
      expect(res.json.error.message).toMatch(message);
      expect(await statusInDb(id)).toBe(before);
    }
  });

  it("GET /api/sessions/{id} reads one; unknown or malformed ids → 404 / 400", async () => {
    expect((await as("vi")("GET", "/api/sessions/c-one")).json.session).toMatchObject({ id: "c-one", project: "alpha" });
    expect((await as("ana")("GET", "/api/sessions/nope")).status).toBe(404);
    expect((await as("ana")("GET", "/api/sessions/.hidden")).status).toBe(400);
    expect((await as("ana")("POST", "/api/sessions/a%20b/claim")).status).toBe(400);
  });

  // Several rounds, because one round can pass by luck: a lost race needs two claims in flight at once.
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])("50 agents claim one document at once (round %i): exactly one 200, 49 × 409", async (round) => {
    const id = `race-${round}`;
    await queue("ana", "alpha", `---\nid: ${id}\n---\ncontended`);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => agent(i)("POST", `/api/sessions/${id}/claim`)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const winner = results.find((r) => r.status === 200)!.json.session.claimedBy.email;
    for (const loser of results.filter((r) => r.status === 409)) {
      expect(loser.json.error.message).toContain(winner);
    }
    expect(await statusInDb(id)).toBe("doing");
  });
});

describe("who may read and write session documents", () => {
  type Route = { method: string; path: string; body?: unknown };
  const projectRoutes: Route[] = [
    { method: "GET", path: "/api/projects/{p}/sessions" },
    { method: "POST", path: "/api/projects/{p}/sessions", body: { markdown: "x" } },
    { method: "POST", path: "/api/projects/{p}/sessions/claim" },
  ];
  const sessionRoutes: Route[] = [
    { method: "GET", path: "/api/sessions/{s}" },
    { method: "POST", path: "/api/sessions/{s}/claim" },
    { method: "POST", path: "/api/sessions/{s}/complete" },
    { method: "POST", path: "/api/sessions/{s}/release" },
  ];

  beforeAll(async () => {
    await queue("ana", "alpha", "---\nid: ro-target\n---\nDo it.\n");
  });

  it.each([...projectRoutes, ...sessionRoutes])("a member of another project → 404 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("bo")(method, path.replace("{p}", "beta").replace("{s}", betaSessionId), body);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect(await statusInDb(betaSessionId)).toBe("todo");
  });

  it.each(projectRoutes)("a token limited to another project → 403 on $method $path", async ({ method, path, body }) => {
    const res = await as("anaGammaOnly")(method, path.replace("{p}", "alpha").replace("{s}", "ro-target"), body);
    expect(res.status).toBe(403);
  });

  // By id alone, a limited token looks in its own projects only: the id of another is a free id to it.
  it.each(sessionRoutes)("a token limited to another project → 404 on $method $path, as for a free id", async ({ method, path, body }) => {
    const res = await as("anaGammaOnly")(method, path.replace("{s}", "ro-target"), body);
    expect(res.status, res.text).toBe(404);
    expect(res.json.error).toEqual({ code: "not_found", message: 'No session document "ro-target" in a project of yours.' });
    expect(await statusInDb("ro-target")).toBe("todo");
  });

  const writes = [...projectRoutes, ...sessionRoutes].filter((r) => r.method !== "GET");

  it.each(writes)("a read token → 403 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("anaRead")(method, path.replace("{p}", "alpha").replace("{s}", "ro-target"), body);
    expect(res.status).toBe(403);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect(await statusInDb("ro-target")).toBe("todo");
  });

  it.each(writes)("a viewer → 403 on $method $path, nothing changes", async ({ method, path, body }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("vi")(method, path.replace("{p}", "alpha").replace("{s}", "ro-target"), body);
    expect(res.status).toBe(403);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect(await statusInDb("ro-target")).toBe("todo");
  });

  it("a viewer reads the queue and a document", async () => {
    expect((await as("vi")("GET", "/api/projects/alpha/sessions")).status).toBe(200);
    expect((await as("vi")("GET", "/api/sessions/ro-target")).status).toBe(200);
  });
});

describe("a session document's id is unique within its project", () => {
  const inProject = async (slug: string, id: string) =>
    String((await world.sql("SELECT d.status FROM session_docs d JOIN projects p ON p.id = d.project_id WHERE p.slug = ? AND d.id = ?", [slug, id]))[0]!.status);

  it("the same id in two projects: each is queued, read, claimed and finished under its own project", async () => {
    await queue("ana", "alpha", "---\nid: twin\n---\nAlpha's twin.");
    await queue("ana", "queue", "---\nid: twin\n---\nQueue's twin.");
    expect((await as("bo")("GET", "/api/projects/alpha/sessions/twin")).json.session).toMatchObject({ project: "alpha", markdown: "---\nid: twin\n---\nAlpha's twin." });
    expect((await as("bo")("GET", "/api/projects/queue/sessions/twin")).json.session).toMatchObject({ project: "queue", markdown: "---\nid: twin\n---\nQueue's twin." });

    const claimed = await as("bo")("POST", "/api/projects/queue/sessions/twin/claim");
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.json.session).toMatchObject({ id: "twin", project: "queue", status: "doing", claimedBy: { name: "bo" } });
    expect([await inProject("alpha", "twin"), await inProject("queue", "twin")]).toEqual(["todo", "doing"]);
    expect((await as("dee")("POST", "/api/projects/alpha/sessions/twin/claim")).status).toBe(200);
    expect((await as("bo")("POST", "/api/projects/queue/sessions/twin/complete")).json.session).toMatchObject({ project: "queue", status: "done" });
    expect((await as("dee")("POST", "/api/projects/alpha/sessions/twin/release")).json.session).toMatchObject({ project: "alpha", status: "todo" });
    expect([await inProject("alpha", "twin"), await inProject("queue", "twin")]).toEqual(["todo", "done"]);
  });

  it.each([
    { route: "GET /api/sessions/twin", method: "GET", path: "/api/sessions/twin" },
    { route: "POST /api/sessions/twin/claim", method: "POST", path: "/api/sessions/twin/claim" },
    { route: "POST /api/sessions/twin/complete", method: "POST", path: "/api/sessions/twin/complete" },
    { route: "POST /api/sessions/twin/release", method: "POST", path: "/api/sessions/twin/release" },
  ])("$route with the id in two of the caller's projects → 409 naming both, nothing changes", async ({ method, path }) => {
    const before = await tableCounts(databaseUrl);
    const res = await as("bo")(method, path);
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe("conflict");
    expect(res.json.error.message).toMatch(/"twin" is in more than one of your projects \(alpha, queue\)/);
    expect(await tableCounts(databaseUrl)).toEqual(before);
    expect([await inProject("alpha", "twin"), await inProject("queue", "twin")]).toEqual(["todo", "done"]);
  });

  it("the id alone still works where only one of the caller's projects has it, and names only the caller's projects", async () => {
    // cy's beta takes the id too; vi (a viewer of alpha alone) sees one document, and bo's 409 never names beta.
    await queue("cy", "beta", "---\nid: twin\n---\nBeta's twin.");
    expect((await as("vi")("GET", "/api/sessions/twin")).json.session).toMatchObject({ project: "alpha", markdown: "---\nid: twin\n---\nAlpha's twin." });
    expect((await as("cy")("GET", "/api/sessions/twin")).json.session).toMatchObject({ project: "beta" });
    const res = await as("bo")("GET", "/api/sessions/twin");
    expect(res.json.error.message).toContain("(alpha, queue)");
    expect(res.text).not.toContain("beta");
  });

  it("a token limited to one project reads and claims that project's document by id alone, though the user's other projects have the id", async () => {
    await queue("ana", "alpha", "---\nid: twin-g\n---\nAlpha's.");
    await queue("ana", "gamma", "---\nid: twin-g\n---\nGamma's.");
    expect((await as("ana")("GET", "/api/sessions/twin-g")).status).toBe(409);
    const read = await as("anaGammaOnly")("GET", "/api/sessions/twin-g");
    expect(read.status, read.text).toBe(200);
    expect(read.json.session).toMatchObject({ project: "gamma", markdown: "---\nid: twin-g\n---\nGamma's." });
    const claimed = await as("anaGammaOnly")("POST", "/api/sessions/twin-g/claim");
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.json.session).toMatchObject({ project: "gamma", status: "doing" });
    expect([await inProject("alpha", "twin-g"), await inProject("gamma", "twin-g")]).toEqual(["todo", "doing"]);
    expect(claimed.text).not.toContain("alpha");
  });

  // Another project's ids tell nothing: every answer is the one an id that exists nowhere gets.
  it.each([
    { method: "GET", path: "/api/sessions/{s}" },
    { method: "POST", path: "/api/sessions/{s}/claim" },
    { method: "POST", path: "/api/sessions/{s}/complete" },
    { method: "POST", path: "/api/sessions/{s}/release" },
    { method: "GET", path: "/api/projects/alpha/sessions/{s}" },
    { method: "POST", path: "/api/projects/alpha/sessions/{s}/claim" },
    { method: "POST", path: "/api/projects/alpha/sessions/{s}/complete" },
    { method: "POST", path: "/api/projects/alpha/sessions/{s}/release" },
    { method: "GET", path: "/api/projects/beta/sessions/{s}" },
    { method: "POST", path: "/api/projects/beta/sessions/{s}/claim" },
  ])("$method $path: another project's id answers as a free id does", async ({ method, path }) => {
    // cy's beta holds "beta-secret" (queued before all tests); "nowhere-at-all" is in no project.
    const taken = await as("ana")(method, path.replace("{s}", betaSessionId));
    const free = await as("ana")(method, path.replace("{s}", "nowhere-at-all"));
    expect(taken.status).toBe(404);
    expect(taken.status).toBe(free.status);
    expect(taken.text.replaceAll(betaSessionId, "ID")).toBe(free.text.replaceAll("nowhere-at-all", "ID"));
  });

  it("creating a document whose id another project holds just works in the caller's project", async () => {
    const mine = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown: `---\nid: ${betaSessionId}\n---\nAlpha's own.` });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.json.session).toMatchObject({ id: betaSessionId, project: "alpha", status: "todo" });
    expect((await as("cy")("GET", `/api/projects/beta/sessions/${betaSessionId}`)).json.session.markdown).toBe("---\nid: beta-secret\n---\nBeta work");
    // The same id twice in one project is still a conflict.
    const again = await as("ana")("POST", "/api/projects/alpha/sessions", { markdown: `---\nid: ${betaSessionId}\n---\nAgain.` });
    expect(again.status).toBe(409);
  });
});
