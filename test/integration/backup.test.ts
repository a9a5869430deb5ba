import { createClient } from "@libsql/client";
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { runCli } from "../support/cli";
import { startFakeEmbedder, type FakeEmbedder } from "../support/fake-embedder";
import { createProject } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";
import { sideClient } from "../support/side-db";
import { startSqld, type Sqld } from "../support/sqld";

// `baton admin backup` while a real server takes 16-way writes, then `baton admin restore` into a
// fresh database and a server on it: every write acknowledged before the backup began is there.
// Embedded (VACUUM INTO), embedded with learnings embedded (its libSQL vector index: a copy inside
// one read transaction, as for a libSQL server) and a libSQL server (sqld).

const SECRET = "backup-test-secret-that-is-long-enough-000";
const WRITERS = 16;
const tmp = tempDir("baton-backup-");
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  tmp.remove();
});

type Shape = { name: string; source: () => Promise<string>; target: () => Promise<string>; method: string; embeddings?: boolean };

const shapes: Shape[] = [
  { name: "embedded", source: async () => `file:${tmp.dir}/source.db`, target: async () => `file:${tmp.dir}/restored.db`, method: "vacuum-into" },
  {
    name: "embedded, learnings embedded",
    source: async () => `file:${tmp.dir}/vectors.db`,
    target: async () => `file:${tmp.dir}/vectors-restored.db`,
    method: "snapshot-copy",
    embeddings: true,
  },
  { name: "libSQL server (sqld)", source: async () => (await sqld()).url, target: async () => (await sqld()).url, method: "snapshot-copy" },
];

async function sqld(): Promise<Sqld> {
  const server = await startSqld();
  cleanups.push(() => server.stop());
  return server;
}

const admin = (databaseUrl: string, args: string[]) => runCli(["admin", ...args], { env: { DATABASE_URL: databaseUrl, BATON_SECRET: SECRET } });

// What the test asks is what a backup holds, not how long a write may take: 16 writers and a snapshot
// copy on a loaded 2-core CI machine took a sqld write past the default 1.5 s (a 503 the writers stop on).
const PATIENT_DATABASE = { DATABASE_TIMEOUT_MS: "15000" };

let embedder: FakeEmbedder | undefined;
async function embeddings(): Promise<Record<string, string>> {
  if (!embedder) {
    embedder = await startFakeEmbedder();
    cleanups.push(() => embedder!.stop());
  }
  return { EMBEDDINGS_URL: embedder.url, EMBEDDINGS_MODEL: "fake-16" };
}

async function serve(databaseUrl: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer({ databaseUrl, env: { BATON_SECRET: SECRET, ...PATIENT_DATABASE, ...env } });
  cleanups.push(() => server.stop());
  return server;
}

/** 16 writers posting learnings until told to stop; each acknowledged write is kept, in the order the 201s arrived. */
function startWriters(url: string, token: string) {
  const acked: { id: string; content: string }[] = [];
  let stopping = false;
  let n = 0;
  const ana = apiClient(url, token);
  const writer = async (w: number) => {
    while (!stopping) {
      const content = `Backup probe ${w}-${n++} about flux capacitors`;
      const res = await ana("POST", "/api/learnings", { kind: "insight", content });
      // Not acknowledged, to be tried again (as the answer says): the database was busy for a moment.
      if (res.status === 503) continue;
      if (res.status !== 201) throw new Error(`write answered ${res.status}: ${res.text}`);
      acked.push({ id: res.json.learning.id, content });
    }
  };
  const running = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  return {
    acked,
    stop: async () => {
      stopping = true;
      await running;
    },
  };
}

const MEANT = "Session cookies expire after 24 hours of inactivity";
const PARAPHRASE = `/api/context/prompt?project=web&sessionId=s-meaning&q=${encodeURIComponent("why do users keep getting logged out?")}`;

/** A learning found only by meaning (test/integration/embeddings.test.ts), written and embedded: the vector index exists. */
async function embedOne(url: string, token: string, databaseUrl: string): Promise<void> {
  await createProject(url, token, "web");
  expect((await apiClient(url, token)("POST", "/api/learnings", { kind: "insight", content: MEANT, project: "web" })).status).toBe(201);
  const db = sideClient(databaseUrl);
  const vectors = () => db.execute("SELECT count(*) AS n FROM learning_vectors").then((r) => Number(r.rows[0]!.n), () => 0);
  for (let i = 0; i < 100 && (await vectors()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await vectors()).toBe(1);
  db.close();
}

async function integrity(file: string): Promise<string> {
  const db = createClient({ url: `file:${file}` });
  try {
    return String((await db.execute("PRAGMA integrity_check")).rows[0]![0]);
  } finally {
    db.close();
  }
}

describe.each(shapes)("baton admin backup and restore: $name", (shape) => {
  const file = path.join(tmp.dir, `${shape.name.replace(/\W+/g, "-")}.backup.db`);

  it("backs up while 16 writers write; the restore holds every write acknowledged before the backup began", async () => {
    const sourceUrl = await shape.source();
    const env = shape.embeddings ? await embeddings() : {};
    const server = await serve(sourceUrl, env);
    expect((await admin(sourceUrl, ["create-user", "--email", "ana@example.com", "--password", "long enough pass"])).code).toBe(0);
    const token = (await admin(sourceUrl, ["create-token", "--email", "ana@example.com", "--name", "laptop"])).stdout.trim();
    if (shape.embeddings) await embedOne(server.url, token, sourceUrl);
    const writers = startWriters(server.url, token);
    while (writers.acked.length < 50) await new Promise((r) => setTimeout(r, 20));

    // What was acknowledged before the backup began, taken as it began (an acknowledgement's millisecond
    // can be the one the backup begins in: compared by time, one of those counted as after it).
    const before = writers.acked.slice();
    const backup = await admin(sourceUrl, ["backup", file]);
    // Writes went on during the backup, and go on a little after it.
    const ackedDuring = writers.acked.length - before.length;
    await writers.stop();
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ ok: true, backup: { file, method: shape.method } });
    expect(ackedDuring).toBeGreaterThan(0);
    expect(await integrity(file)).toBe("ok");
    // Password and token hashes, all content: the owner's alone (the umask would leave it 0644).
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const targetUrl = await shape.target();
    const restore = await admin(targetUrl, ["restore", file]);
    expect(restore.code, restore.stderr).toBe(0);
    const restored = await serve(targetUrl, env);
    const ana = apiClient(restored.url, token);
    expect(before.length).toBeGreaterThanOrEqual(50);
    for (let i = 0; i < before.length; i += WRITERS) {
      const answers = await Promise.all(before.slice(i, i + WRITERS).map((a) => ana("GET", `/api/learnings/${a.id}`)));
      for (const [j, res] of answers.entries()) expect(res.json?.learning?.content, `write ${before[i + j]!.id}`).toBe(before[i + j]!.content);
    }
    // The full-text index was rebuilt from the copied rows, with its BM25 weights.
    const found = await ana("GET", "/api/learnings?q=capacitor&limit=5");
    expect(found.status).toBe(200);
    expect(found.json.items).toHaveLength(5);
    // The vector index was made again from the copied vectors: a paraphrase sharing no word is found by meaning.
    if (shape.embeddings) expect((await ana("GET", PARAPHRASE)).json.context).toContain(MEANT);

    // A second restore into what is now a live database is refused, and changes nothing.
    const again = await admin(targetUrl, ["restore", file]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/DATABASE_URL is not empty .*restore only into a new, empty database/);
  }, 180_000);
});

describe("baton admin backup and restore refuse", () => {
  const emptyUrl = `file:${tmp.dir}/never-written.db`;

  it.each([
    ["a backup file that exists already", async () => { const f = path.join(tmp.dir, "exists.db"); writeFileSync(f, "x"); return ["backup", f]; }, 3, /exists already/],
    ["a missing backup file", async () => ["restore", path.join(tmp.dir, "missing.db")], 4, /no backup file/],
    ["a file that is not a database", async () => { const f = path.join(tmp.dir, "junk.db"); writeFileSync(f, "not a database at all, just text ".repeat(200)); return ["restore", f]; }, 1, /not a database|integrity/],
    ["a database that is not Baton's", async () => { const f = path.join(tmp.dir, "other.db"); const db = createClient({ url: `file:${f}` }); await db.execute("CREATE TABLE t (x)"); db.close(); return ["restore", f]; }, 1, /not a Baton database/],
    ["a backup made by a newer Baton", async () => {
      const f = path.join(tmp.dir, "newer.db");
      const db = createClient({ url: `file:${f}` });
      await db.batch(["CREATE TABLE __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)", `INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', ${Date.now() + 365 * 86_400_000})`]);
      db.close();
      return ["restore", f];
    }, 1, /newer Baton/],
    ["no file named", async () => ["backup"], 2, /usage: baton admin backup FILE/],
  ] as const)("%s", async (_what, args, code, message) => {
    const result = await admin(emptyUrl, [...(await args())]);
    expect(result.code, result.stderr).toBe(code);
    expect(result.stderr).toMatch(message);
    // Refused before anything was written: the target is as empty as it was (not even migrated).
    const db = createClient({ url: emptyUrl });
    expect((await db.execute("SELECT count(*) AS n FROM sqlite_master")).rows[0]!.n).toBe(0);
    db.close();
  });
});
