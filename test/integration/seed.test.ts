import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { createUserWithToken, tableCounts } from "../support/fixtures";
import { ROOT, startServer, tempDir, type RunningServer } from "../support/server";

const fixture = JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/seed.json"), "utf8"));
const tmp = tempDir();
const databaseUrl = `file:${tmp.dir}/seed.db`;
let server: RunningServer;
let api: ReturnType<typeof apiClient>;
let other: ReturnType<typeof apiClient>;

beforeAll(async () => {
  server = await startServer({ databaseUrl });
  api = apiClient(server.url, await createUserWithToken(databaseUrl, "ivy@example.com"));
  other = apiClient(server.url, await createUserWithToken(databaseUrl, "other@example.com"));
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

/** Every key and value of `expected` is in `actual` (arrays matched item by item, order kept). */
function expectContains(actual: unknown, expected: unknown, where = "seed"): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), where).toBe(true);
    expect((actual as unknown[]).length, where).toBe(expected.length);
    expected.forEach((e, i) => expectContains((actual as unknown[])[i], e, `${where}[${i}]`));
  } else if (expected && typeof expected === "object") {
    for (const [k, v] of Object.entries(expected)) expectContains((actual as Record<string, unknown>)?.[k], v, `${where}.${k}`);
  } else {
    expect(actual, where).toEqual(expected);
  }
}

describe("seed", () => {
  it("has none before setup (404)", async () => {
    const res = await api("GET", "/api/seed");
    expect(res.status).toBe(404);
    expect(res.json.error.message).toContain("PUT /api/seed");
  });

  it.each([
    { name: "no version", mutate: (s: any) => delete s.version, field: "version" }, // eslint-disable-line @typescript-eslint/no-explicit-any
    { name: "bad kind of proposal", mutate: (s: any) => (s.state.proposals[0].type = "rumour"), field: "state.proposals.0.type" }, // eslint-disable-line @typescript-eslint/no-explicit-any
    { name: "empty learned content", mutate: (s: any) => (s.learned.insights[0].content = ""), field: "learned.insights.0.content" }, // eslint-disable-line @typescript-eslint/no-explicit-any
    { name: "tags not a list", mutate: (s: any) => (s.learned.patterns[1].tags = "testing"), field: "learned.patterns.1.tags" }, // eslint-disable-line @typescript-eslint/no-explicit-any
    { name: "bad date", mutate: (s: any) => (s.learned.patterns[0].extractedAt = "yesterday"), field: "learned.patterns.0.extractedAt" }, // eslint-disable-line @typescript-eslint/no-explicit-any
    { name: "no aiName", mutate: (s: any) => delete s.identity.aiName, field: "identity.aiName" }, // eslint-disable-line @typescript-eslint/no-explicit-any
  ])("a malformed file ($name) → 400 naming $field, nothing written", async ({ mutate, field }) => {
    const bad = structuredClone(fixture);
    mutate(bad);
    const before = await tableCounts(databaseUrl);
    const res = await api("POST", "/api/seed/import", bad);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain(field);
    expect(await tableCounts(databaseUrl)).toEqual(before);
  });

  it("imports a pai-seed file, and importing it again adds nothing", async () => {
    const first = await api("POST", "/api/seed/import", fixture);
    expect(first.status).toBe(200);
    expect(first.json.imported).toEqual({ learningsAdded: 4, learningsSkipped: 0, proposalsAdded: 2, proposalsSkipped: 0 });
    const counts = await tableCounts(databaseUrl);
    const again = await api("POST", "/api/seed/import", fixture);
    expect(again.json.imported).toEqual({ learningsAdded: 0, learningsSkipped: 4, proposalsAdded: 0, proposalsSkipped: 2 });
    expect(await tableCounts(databaseUrl)).toEqual(counts);
  });

  it("export(import(file)) gives back every field of the file, unknown keys included", async () => {
    const res = await api("GET", "/api/seed");
    expect(res.status).toBe(200);
    expectContains(res.json.seed, fixture);
  });

  it("imported learnings are searchable and proposals are in the review queue", async () => {
    const found = await api("GET", "/api/learnings?q=deploying+images");
    expect(found.json.items[0].content).toContain("image cache");
    const pending = await api("GET", "/api/proposals?status=pending");
    expect(pending.json.items.map((p: { content: string }) => p.content)).toEqual([fixture.state.proposals[0].content]);
  });

  it("PUT /api/seed changes identity fields and keeps the rest", async () => {
    const res = await api("PUT", "/api/seed", { identity: { catchphrase: "Ivy, at your service.", preferences: { responseStyle: "concise" } } });
    expect(res.status).toBe(200);
    expect(res.json.seed.identity).toEqual({
      ...fixture.identity,
      catchphrase: "Ivy, at your service.",
      preferences: { ...fixture.identity.preferences, responseStyle: "concise" },
    });
    expect(res.json.seed.learned.patterns).toHaveLength(2);
  });

  it("PUT /api/seed with null removes an optional identity field; keys Baton does not know stay", async () => {
    await api("PUT", "/api/seed", { identity: { catchphrase: "Onwards.", preferences: { timezone: "Europe/Berlin" } } });
    const res = await api("PUT", "/api/seed", { identity: { catchphrase: null, voiceId: null, preferences: { responseStyle: null, timezone: null, locale: null } } });
    expect(res.status).toBe(200);
    expect(res.json.seed.identity).not.toHaveProperty("catchphrase");
    expect(res.json.seed.identity).not.toHaveProperty("voiceId");
    expect(res.json.seed.identity).toMatchObject({
      aiName: fixture.identity.aiName,
      principalName: fixture.identity.principalName,
      pronouns: fixture.identity.pronouns,
      preferences: { fontSize: fixture.identity.preferences.fontSize },
    });
    expect(Object.keys(res.json.seed.identity.preferences)).toEqual(["fontSize"]);
    // The names are required, so they cannot be removed.
    expect((await api("PUT", "/api/seed", { identity: { aiName: null } })).status).toBe(400);
  });

  it.each([
    { body: { identity: { responseStyle: 3 }, extra: 1 }, why: "unknown top-level key" },
    { body: { identity: { preferences: { responseStyle: "chatty" } } }, why: "bad response style" },
    { body: { identity: { aiName: "" } }, why: "empty aiName" },
    { body: {}, why: "no identity" },
  ])("PUT with $why → 400", async ({ body }) => {
    const before = await api("GET", "/api/seed");
    const res = await api("PUT", "/api/seed", body);
    expect(res.status).toBe(400);
    expect((await api("GET", "/api/seed")).json).toEqual(before.json);
  });

  it("a new user's first PUT needs aiName and principalName", async () => {
    const res = await other("PUT", "/api/seed", { identity: { catchphrase: "hi" } });
    expect(res.status).toBe(400);
    expect(res.json.error.issues[0].path).toEqual(["identity", "aiName"]);
    const ok = await other("PUT", "/api/seed", { identity: { aiName: "Otto", principalName: "Ola" } });
    expect(ok.status).toBe(200);
    expect(ok.json.seed).toMatchObject({ version: "1.0.0", identity: { aiName: "Otto" }, learned: { patterns: [] } });
  });

  it("a user sees only their own seed, learnings and proposals", async () => {
    const seed = await other("GET", "/api/seed");
    expect(seed.json.seed.identity.aiName).toBe("Otto");
    expect((await other("GET", "/api/learnings")).json.items).toEqual([]);
    expect((await other("GET", "/api/proposals")).json.items).toEqual([]);
  });

  it('a hand-written version "1.0" is imported as "1.0.0"; "v1" is refused naming the version', async () => {
    const hand = apiClient(server.url, await createUserWithToken(databaseUrl, "hand@example.com"));
    const refused = await hand("POST", "/api/seed/import", { ...fixture, version: "v1" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain("version");
    const res = await hand("POST", "/api/seed/import", { ...fixture, version: "1.0" });
    expect(res.status, res.text).toBe(200);
    expect((await hand("GET", "/api/seed")).json.seed.version).toBe("1.0.0");
  });
});
