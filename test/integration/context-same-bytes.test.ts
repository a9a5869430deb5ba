import { sideClient } from "../support/side-db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { apiClient, type ApiClient } from "../support/api";
import { createProject, createUserWithToken } from "../support/fixtures";
import { startServer, tempDir, type RunningServer } from "../support/server";

/**
 * A context is a function of the stored state (its bookkeeping included: the last session, the setup
 * note shown) and the query: the same bytes from an instance that
 * has answered before (its caches warm), from one that has not (cold), and from both again after the
 * state changed under their caches. Two instances on one database file.
 */

const tmp = tempDir("baton-same-bytes-");
const databaseUrl = `file:${tmp.dir}/baton.db`;
let a: RunningServer;
let b: RunningServer;
let onA: ApiClient;
let onB: ApiClient;
let token: string;

/** Hook-like questions: several hints, budgets tight and loose, a project by name, by directory and none. */
const QUERIES = [
  "project=web&q=refresh+token+race+fix&branch=feat/token-refresh&sessionId=s1",
  "project=web&q=ledger+webhook+retry&budget=300&sessionId=s2",
  "project=web&q=deploy+staging+cache&source=compact&budget=600",
  "cwd=/home/ana/src/web&q=cursor+pagination+schema&branch=main",
  "cwd=/home/ana/src/elsewhere&q=token+refresh",
  "q=vault+secret+rotate&budget=800",
  "project=web&budget=200",
  "project=web&q=the+and+of&mode=complement",
].map((q) => `/api/context?format=text&${q}`);

const WORDS = "token refresh race cookie ledger webhook retry deploy staging cache cursor pagination schema vault secret rotate migrate queue".split(" ");

/** Contexts in the served log: the buffered bookkeeping writes the log and the marks in one transaction. */
async function contextsLogged(): Promise<number> {
  const db = sideClient(databaseUrl);
  try {
    return Number((await db.execute("SELECT count(*) AS n FROM context_log")).rows[0]!.n);
  } finally {
    db.close();
  }
}

async function askAll(api: ApiClient): Promise<string[]> {
  const bodies: string[] = [];
  for (const q of QUERIES) {
    const res = await api("GET", q);
    expect(res.status, res.text).toBe(200);
    bodies.push(res.text);
  }
  return bodies;
}

beforeAll(async () => {
  // Instances behind one name share BATON_BASE_URL, so the links in a context are the same from each.
  const env = { BATON_BASE_URL: "http://baton.test" };
  [a, b] = await Promise.all([startServer({ databaseUrl, env }), startServer({ databaseUrl, env })]);
  token = await createUserWithToken(databaseUrl, "ana@example.com");
  [onA, onB] = [apiClient(a.url, token), apiClient(b.url, token)];
  await createProject(a.url, token, "web");
  for (let i = 0; i < 60; i++) {
    const content = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]} learning number ${i}`;
    const res = await onA("POST", "/api/learnings", { kind: ["pattern", "insight", "self_knowledge"][i % 3], content, project: i % 4 ? "web" : undefined, confirmed: i % 5 !== 0 });
    expect(res.status).toBe(201);
  }
  expect((await onA("POST", "/api/proposals", { kind: "pattern", content: "Rotate the vault secret monthly", project: "web", confidence: 0.7 })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  tmp.remove();
});

describe("the same state and query", () => {
  it("give the same bytes from an instance whose caches are warm and from one that has not answered yet", async () => {
    // The very first answers differ on purpose: the setup note is shown once, and the sessions asking
    // become the last session (test/integration/context-marks.test.ts). Once that is written (the
    // bookkeeping is buffered for a second), the state is steady.
    await askAll(onA);
    // Every answer is logged in the same batch as the marks it wrote: all logged, the state is steady.
    await expect.poll(() => contextsLogged(), { timeout: 15_000 }).toBe(QUERIES.length);
    const first = await askAll(onA);
    const again = await askAll(onA);
    const cold = await askAll(onB);
    expect(again).toEqual(first);
    expect(cold).toEqual(first);
    expect(first[0]).toContain("## Relevant learnings");
  });

  it("give the same bytes from both instances after the state changed under their caches", async () => {
    await askAll(onB);
    const added = await onB("POST", "/api/learnings", { kind: "pattern", content: "Flamingo refresh token race is fixed by a lock", project: "web", confirmed: true });
    expect(added.status).toBe(201);
    const list = await onB("GET", "/api/learnings?project=web&limit=5");
    expect((await onB("PATCH", `/api/learnings/${list.json.items.at(-1).id}`, { kind: "insight" })).status).toBe(200);
    const fromA = await askAll(onA);
    const fromB = await askAll(onB);
    // A third instance started now has nothing remembered from before the change.
    const c = await startServer({ databaseUrl, env: { BATON_BASE_URL: "http://baton.test" } });
    try {
      expect(await askAll(apiClient(c.url, token))).toEqual(fromA);
    } finally {
      await c.stop();
    }
    expect(fromA).toEqual(fromB);
    expect(fromA[0]).toContain("Flamingo refresh token race");
    // The newest learning leads a context without hints: no instance kept the recent ones from before.
    expect(fromA[6]).toContain("Flamingo refresh token race");
  });

  it("a repository that maps to no project, asked again with other hints, budget or mode (nothing written between): answered each time", async () => {
    // The second question starts from the snapshot the first left, which says "personal".
    for (const query of ["cwd=/srv/unmapped-a", "cwd=/srv/unmapped-a&q=token+refresh", "cwd=/srv/unmapped-a&q=ledger+retry&budget=3000", "cwd=/srv/unmapped-a&mode=complement",
      "remote=git@example.com:x/unmapped.git&branch=main&q=first+commit", "remote=git@example.com:x/unmapped.git&branch=main&q=second+commit"]) {
      const res = await onA("GET", `/api/context?format=text&${query}`);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
      expect(res.text).toMatch(/Project: none of yours matches/);
    }
  });

  it("as JSON too: the same body, etag and exact token count from both instances", async () => {
    const q = "/api/context?project=web&q=ledger+webhook+deploy&budget=700";
    const [fromA, fromB] = [await onA("GET", q), await onB("GET", q)];
    expect(fromA.text).toBe(fromB.text);
    expect(fromA.json.tokenEstimate).toBe(countTokens(fromA.json.context));
  });
});
