import { sideClient } from "../support/side-db";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_PART_ROWS, MAX_IMPORT_ROWS, MAX_LEARNINGS_PER_USER } from "@/lib/rules";
import { apiClient } from "../support/api";
import { createUserWithToken, tableCounts } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";
import { homeEnv, runBaton } from "../fixtures/cli/cli-env";

// Imports are bounded (issue 21, finding 3): written in batches that each commit on their own, a row
// limit per import, a learning cap per user; a cut-off import is finished by running it again.

const tmp = tempDir("baton-import-bounds-");
const databaseUrl = `file:${tmp.dir}/bounds.db`;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ databaseUrl });
});
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

/** A seed.json of `n` learnings (ids `<prefix>-<i>`, spread over the three kinds) and `proposals` proposals. */
function seedOf(n: number, options: { prefix?: string; proposals?: number; tiny?: boolean } = {}) {
  const prefix = options.prefix ?? "l";
  const categories = ["patterns", "insights", "selfKnowledge"] as const;
  const learned = { patterns: [] as object[], insights: [] as object[], selfKnowledge: [] as object[] };
  // Tiny items: a row limit's worth within the body limit.
  const content = (i: number) => (options.tiny ? "x" : `Learning ${prefix} ${i}: keep the build cache warm`);
  for (let i = 0; i < n; i++) learned[categories[i % 3]!].push({ id: `${prefix}-${i}`, content: content(i) });
  const proposals = Array.from({ length: options.proposals ?? 0 }, (_, i) => ({ id: `p-${i}`, type: "insight", content: `Proposal ${i}` }));
  return { version: "1.0.0", identity: { principalName: "Ana", aiName: "Bee" }, learned, state: { proposals } };
}

async function query(sql: string, args: (string | number)[] = []) {
  const db = sideClient(databaseUrl);
  try {
    return (await db.execute({ sql, args })).rows;
  } finally {
    db.close();
  }
}

/** The user's learnings: how many, and how many distinct external ids among them. */
async function stored(email: string): Promise<{ learnings: number; distinct: number; proposals: number }> {
  const [row] = await query(
    `SELECT count(l.seq) AS learnings, count(DISTINCT l.external_id) AS distinct_ids,
       (SELECT count(*) FROM proposals p WHERE p.user_id = u.id) AS proposals
     FROM users u LEFT JOIN learnings l ON l.user_id = u.id WHERE u.email = ?`,
    [email],
  );
  return { learnings: Number(row!.learnings), distinct: Number(row!.distinct_ids), proposals: Number(row!.proposals) };
}

describe("seed import bounds", () => {
  it("an import over the row limit is refused (413 naming the limit) and nothing is written", async () => {
    const api = apiClient(server.url, await createUserWithToken(databaseUrl, "big@example.com"));
    const cases = [
      { name: "learnings alone", seed: seedOf(MAX_IMPORT_ROWS + 1, { tiny: true }) },
      { name: "learnings and proposals together", seed: seedOf(MAX_IMPORT_ROWS - 5, { proposals: 6, tiny: true }) },
    ];
    for (const { name, seed } of cases) {
      const before = await tableCounts(databaseUrl);
      const res = await api("POST", "/api/seed/import", seed);
      expect(res.status, name).toBe(413);
      expect(res.json.error.code, name).toBe("payload_too_large");
      expect(res.json.error.message, name).toContain(String(MAX_IMPORT_ROWS));
      expect(await tableCounts(databaseUrl), name).toEqual(before);
    }
  }, 60_000);

  it("a multi-batch import stores every learning and proposal once; again, it adds nothing", async () => {
    const api = apiClient(server.url, await createUserWithToken(databaseUrl, "multi@example.com"));
    const seed = seedOf(2_345, { proposals: 1_234 });
    // The first 1,000 already there: the rest is added, the rest skipped.
    const head = seedOf(1_000);
    expect((await api("POST", "/api/seed/import", head)).json.imported.learningsAdded).toBe(1_000);
    const first = await api("POST", "/api/seed/import", seed);
    expect(first.status, first.text).toBe(200);
    expect(first.json.imported).toEqual({ learningsAdded: 1_345, learningsSkipped: 1_000, proposalsAdded: 1_234, proposalsSkipped: 0 });
    expect(await stored("multi@example.com")).toEqual({ learnings: 2_345, distinct: 2_345, proposals: 1_234 });
    const again = await api("POST", "/api/seed/import", seed);
    expect(again.json.imported).toEqual({ learningsAdded: 0, learningsSkipped: 2_345, proposalsAdded: 0, proposalsSkipped: 1_234 });
    expect(await stored("multi@example.com")).toEqual({ learnings: 2_345, distinct: 2_345, proposals: 1_234 });
    // Searchable: the full-text triggers ran for every batch.
    const found = await api("GET", "/api/learnings?q=%22l+2344%22");
    expect(found.json.items.map((l: { content: string }) => l.content)).toContain("Learning l 2344: keep the build cache warm");
  });

  it("the per-user learning cap holds: refused naming how many, nothing written; a repeat of stored items is not new", async () => {
    const email = "full@example.com";
    const token = await createUserWithToken(databaseUrl, email);
    expect((await apiClient(server.url, token)("POST", "/api/seed/import", seedOf(10, { prefix: "mine" }))).status).toBe(200);
    // The rest of the way to 20 short of the cap, written straight into the database (an import that
    // big would take the test a minute) while the server is stopped: the fill holds the write lock for
    // longer than the server's writes wait.
    await server.stop();
    const fill = MAX_LEARNINGS_PER_USER - 20 - 10;
    await query(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO learnings (id, user_id, kind, content, created_at, updated_at, needs_embedding)
       SELECT 'fill-' || i, u.id, 'insight', 'filler ' || i, 0, 0, 0 FROM n, users u WHERE u.email = ?`,
      [fill, email],
    );
    expect((await stored(email)).learnings).toBe(MAX_LEARNINGS_PER_USER - 20);
    server = await startServer({ databaseUrl });
    const api = apiClient(server.url, token);

    const before = await tableCounts(databaseUrl);
    const over = await api("POST", "/api/seed/import", seedOf(21, { prefix: "new" }));
    expect(over.status).toBe(413);
    expect(over.json.error.message).toContain(`You have ${MAX_LEARNINGS_PER_USER - 20} learnings and this seed would add 21`);
    expect(over.json.error.message).toContain(String(MAX_LEARNINGS_PER_USER));
    expect(await tableCounts(databaseUrl)).toEqual(before);

    // The 10 stored items again with 20 new ones: only the 20 count, and they fit exactly.
    const mixed = seedOf(10, { prefix: "mine" });
    const fresh = seedOf(20, { prefix: "new" }).learned;
    mixed.learned.insights.push(...fresh.patterns, ...fresh.insights, ...fresh.selfKnowledge);
    const fits = await api("POST", "/api/seed/import", mixed);
    expect(fits.status, fits.text).toBe(200);
    expect(fits.json.imported).toMatchObject({ learningsAdded: 20, learningsSkipped: 10 });
    expect((await stored(email)).learnings).toBe(MAX_LEARNINGS_PER_USER);
    // At the cap, a repeat still answers (nothing new), and one more is refused.
    expect((await api("POST", "/api/seed/import", mixed)).json.imported).toMatchObject({ learningsAdded: 0, learningsSkipped: 30 });
    expect((await api("POST", "/api/seed/import", seedOf(1, { prefix: "one-more" }))).status).toBe(413);
  }, 120_000);

  it("an import cut off by the server dying midway keeps what it wrote; run again, it ends with exactly the full set", async () => {
    const email = "cut@example.com";
    const token = await createUserWithToken(databaseUrl, email);
    const seed = seedOf(60_000, { proposals: 50 });
    const sent = apiClient(server.url, token)("POST", "/api/seed/import", seed).catch(() => null);
    // Batches commit as they go: kill the server once some are stored and before all are.
    let seen = 0;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 5))) {
      seen = (await stored(email)).learnings;
      if (seen > 0) break;
    }
    process.kill(-server.process.pid!, "SIGKILL");
    await sent;
    const cut = await stored(email);
    expect(seen).toBeGreaterThan(0);
    expect(cut.learnings).toBeGreaterThan(0);
    expect(cut.learnings).toBeLessThan(60_000);

    server = await startServer({ databaseUrl });
    const again = await apiClient(server.url, token)("POST", "/api/seed/import", seed);
    expect(again.status, again.text).toBe(200);
    expect(again.json.imported.learningsAdded + again.json.imported.learningsSkipped).toBe(60_000);
    expect(again.json.imported.learningsSkipped).toBe(cut.learnings);
    expect(await stored(email)).toEqual({ learnings: 60_000, distinct: 60_000, proposals: 50 });
    const [fts] = await query("SELECT count(*) AS n FROM learnings_fts WHERE learnings_fts MATCH 'warm'");
    expect(Number(fts!.n)).toBeGreaterThanOrEqual(60_000);
  }, 240_000);

  it(`baton import sends a seed.json of more than ${IMPORT_PART_ROWS} rows in parts, and a second run adds nothing`, async () => {
    const token = await createUserWithToken(databaseUrl, "parts@example.com");
    const file = path.join(tmp.dir, "parts-seed.json");
    const rows = IMPORT_PART_ROWS + 2_000;
    writeFileSync(file, JSON.stringify({ ...seedOf(rows - 100, { proposals: 100 }), futureKey: { kept: true } }));
    const env = homeEnv(path.join(tmp.dir, "parts-home"), { BATON_URL: server.url, BATON_TOKEN: token });
    const first = await runBaton(["import", file], { cwd: tmp.dir, env });
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).summary.seed).toEqual({ files: 1, learningsAdded: rows - 100, learningsSkipped: 0, proposalsAdded: 100, proposalsSkipped: 0 });
    const second = await runBaton(["import", file], { cwd: tmp.dir, env });
    expect(JSON.parse(second.stdout).summary.seed).toEqual({ files: 1, learningsAdded: 0, learningsSkipped: rows - 100, proposalsAdded: 0, proposalsSkipped: 100 });
    expect(await stored("parts@example.com")).toEqual({ learnings: rows - 100, distinct: rows - 100, proposals: 100 });
    const exported = await apiClient(server.url, token)("GET", "/api/seed");
    expect(exported.json.seed.futureKey).toEqual({ kept: true });
  }, 180_000);
});
