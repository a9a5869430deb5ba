import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { Unreachable, type ApiCall } from "@/cli/src/http/api-client";
import { flushSpool, pendingSpool, writeSpool } from "@/cli/src/hooks/spool";
import { handoffRequest } from "@/cli/src/hooks/deliver";
import { redactValue, SecretRedactor } from "@/lib/secrets/redact-secrets";

const root = mkdtempSync(path.join(tmpdir(), "baton-spool-unit-"));
const previousCache = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = path.join(root, "cache");
afterAll(() => {
  process.env.XDG_CACHE_HOME = previousCache;
  rmSync(root, { recursive: true, force: true });
});

let dir: string;
let n = 0;
beforeEach(() => {
  dir = path.join(root, `spool-${++n}`);
});

const SERVER = "http://baton.test";
const request = (what: string) => redactValue(new SecretRedactor(), { method: "POST" as const, path: `/api/${what}`, body: { what }, what });

/** A fake server: answers by path (a status, or a status with another's HTML page), records what it was sent. */
function fakeServer(answer: (path: string) => number | "down" | { status: number; html: true }) {
  const sent: string[] = [];
  const call: ApiCall = async (_method, p) => {
    const given = answer(p);
    if (given === "down") throw new Unreachable("http://x", "refused", "ECONNREFUSED");
    sent.push(p);
    if (typeof given === "object") return { status: given.status, text: "<h1>Access denied</h1>", json: undefined, server: "http://x", contentType: "text/html" };
    // Baton's shapes: success, or its error JSON.
    const json = given < 300 ? { ok: true } : { ok: false, error: { code: "refused", message: `refused with ${given}` } };
    return { status: given, text: JSON.stringify(json), json, server: "http://x", contentType: "application/json" };
  };
  return { call, sent };
}

describe("the spool", () => {
  it("sends in the order written and deletes after a 2xx", async () => {
    for (const w of ["a", "b", "c"]) writeSpool(request(w), SERVER, dir);
    const server = fakeServer(() => 201);
    expect(await flushSpool(server.call, SERVER, Date.now() + 5000, dir)).toEqual({ sent: 3, dropped: 0, kept: 0, stoppedBy: null });
    expect(server.sent).toEqual(["/api/a", "/api/b", "/api/c"]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("stops at the first failure to reach the server and keeps everything from there", async () => {
    for (const w of ["a", "b", "c"]) writeSpool(request(w), SERVER, dir);
    const server = fakeServer((p) => (p === "/api/a" ? 200 : "down"));
    expect(await flushSpool(server.call, SERVER, Date.now() + 5000, dir)).toMatchObject({ sent: 1, kept: 2, stoppedBy: "refused" });
    expect(pendingSpool(dir)).toHaveLength(2);
  });

  it.each([
    { status: 400, kept: false },
    { status: 404, kept: false },
    { status: 409, kept: false },
    { status: 413, kept: false },
    { status: 422, kept: false },
    // A project or scope the token lacks: refused again on every resend.
    { status: 403, kept: false },
    // The token itself refused: every request alike, until `baton login`.
    { status: 401, kept: true },
    { status: 408, kept: true },
    { status: 429, kept: true },
    { status: 500, kept: true },
    { status: 503, kept: true },
  ])("an answer $status: kept $kept", async ({ status, kept }) => {
    writeSpool(request("x"), SERVER, dir);
    await flushSpool(fakeServer(() => status).call, SERVER, Date.now() + 5000, dir);
    expect(pendingSpool(dir)).toHaveLength(kept ? 1 : 0);
  });

  it.each([403, 404, 400])("a %i that is not Baton's (a gateway's page) keeps the file and stops the flush", async (status) => {
    writeSpool(request("a"), SERVER, dir);
    writeSpool(request("b"), SERVER, dir);
    const server = fakeServer(() => ({ status, html: true }));
    const result = await flushSpool(server.call, SERVER, Date.now() + 5000, dir);
    expect(pendingSpool(dir)).toHaveLength(2);
    expect(server.sent).toEqual(["/api/a"]);
    expect(result.stoppedBy).toMatch(/did not answer as a Baton server/);
  });

  it("gives up on a file older than 14 days that is still refused", async () => {
    const file = writeSpool(request("old"), SERVER, dir);
    const data = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...data, createdAt: new Date(Date.now() - 15 * 86_400_000).toISOString() }));
    await flushSpool(fakeServer(() => 401).call, SERVER, Date.now() + 5000, dir);
    expect(pendingSpool(dir)).toEqual([]);
  });

  it("a file claimed by a live process is left alone; one claimed by a dead process is taken back", async () => {
    const a = writeSpool(request("mine"), SERVER, dir);
    const b = writeSpool(request("orphan"), SERVER, dir);
    renameSync(a, `${a}.sending-${process.pid}`);
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    renameSync(b, `${b}.sending-${dead}`);
    expect(pendingSpool(dir)).toEqual([b]);
    const server = fakeServer(() => 200);
    await flushSpool(server.call, SERVER, Date.now() + 5000, dir);
    expect(server.sent).toEqual(["/api/orphan"]);
  });

  it("respects the deadline", async () => {
    for (const w of ["a", "b"]) writeSpool(request(w), SERVER, dir);
    expect(await flushSpool(fakeServer(() => 200).call, SERVER, Date.now() + 10, dir)).toMatchObject({ sent: 0, kept: 2, stoppedBy: "time" });
  });

  it("sends only what was spooled for this server (or for none); another server's requests wait", async () => {
    writeSpool(request("mine"), "http://baton.test/", dir);
    writeSpool(request("theirs"), "https://other.test", dir);
    writeSpool(request("anyone"), null, dir);
    const server = fakeServer(() => 200);
    expect(await flushSpool(server.call, SERVER, Date.now() + 5000, dir)).toMatchObject({ sent: 2, kept: 0 });
    expect(server.sent).toEqual(["/api/mine", "/api/anyone"]);
    expect(pendingSpool(dir).map((f) => JSON.parse(readFileSync(f, "utf8")).server)).toEqual(["https://other.test"]);
  });

  it("never leaves a half-written file under a name it reads", () => {
    writeSpool(request("a"), SERVER, dir);
    expect(readdirSync(dir).every((name) => name.endsWith(".json"))).toBe(true);
  });
});

describe("the spool stays bounded with no server to flush it", () => {
  const handoff = (sessionId: string, markdown: string) =>
    redactValue(new SecretRedactor(), { method: "POST" as const, path: "/api/handoffs", body: { markdown, sessionId }, what: `the handoff of session ${sessionId}`, replaces: `handoff ${sessionId}` });

  it("keeps one handoff per session, the newest: a Stop hook after every turn spools one each turn", () => {
    for (let turn = 1; turn <= 10; turn++) writeSpool(handoff("s1", `turn ${turn}`), SERVER, dir);
    writeSpool(handoff("s2", "other session"), SERVER, dir);
    writeSpool(request("proposals"), SERVER, dir);
    const left = pendingSpool(dir).map((f) => JSON.parse(readFileSync(f, "utf8")) as { body: { markdown?: string } });
    expect(left.map((r) => r.body.markdown ?? "proposal")).toEqual(["turn 10", "other session", "proposal"]);
  });

  it("drops what has waited past 14 days at the next write and the next flush, whatever the server says", async () => {
    const age = (file: string) => writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), createdAt: new Date(Date.now() - 15 * 86_400_000).toISOString() }));
    age(writeSpool(request("old"), SERVER, dir));
    writeSpool(request("new"), SERVER, dir);
    expect(pendingSpool(dir).map((f) => JSON.parse(readFileSync(f, "utf8")).what)).toEqual(["new"]);
    // And a flush against a server that is down gives up on it too.
    age(pendingSpool(dir)[0]!);
    expect(await flushSpool(fakeServer(() => "down").call, SERVER, Date.now() + 5000, dir)).toMatchObject({ sent: 0, kept: 0 });
    expect(readdirSync(dir).filter((n) => n.endsWith(".json"))).toEqual([]);
  });
});

describe("a handoff as the hooks send it", () => {
  it("carries the time it was written, so one sent later from the spool keeps it", () => {
    const before = Date.now();
    const request = handoffRequest("Did: the owner check.", { guess: "web" }, "s-1", "main", { agent: "claude", model: null });
    const writtenAt = Date.parse((request.body as { writtenAt: string }).writtenAt);
    expect(writtenAt).toBeGreaterThanOrEqual(before);
    expect(writtenAt).toBeLessThanOrEqual(Date.now());
  });
});
