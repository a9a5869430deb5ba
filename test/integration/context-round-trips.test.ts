import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDelayProxy, type DelayProxy } from "../../bench/delay-proxy";
import { apiClient, type ApiClient } from "../support/api";
import { runCli } from "../support/cli";
import { createProject } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

/**
 * Database round trips of a session-start context, and of a prompt-stage answer, on a libSQL server
 * (issue 15): the server reaches sqld through a proxy that counts HTTP requests, i.e. round trips. A
 * count, not a timing.
 */

/** Buffered bookkeeping (served log, rate-limit counts) is written about once a second. */
const FLUSH_MS = 1_000;
/** A token is remembered for 5 s after it was looked up (lib/auth/api-tokens.ts). */
const TOKEN_MEMORY_MS = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sqld: Sqld;
let proxy: DelayProxy;
let server: RunningServer;
let api: ApiClient;
let asked = 0;

/** What the session-start hook sends: its own session id and commit subjects every time. */
function hookQuery(): string {
  asked++;
  const words = ["refresh", "token", "deploy", "migrate", "ledger", "webhook", "cursor", "schema", "retry", "cache"];
  const commits = Array.from({ length: 3 }, (_, i) => `${words[(asked + i) % words.length]} ${words[(asked * 3 + i) % words.length]} fix ${asked}`).join(" · ");
  const params = new URLSearchParams({ project: "web", format: "claude", source: "startup", sessionId: crypto.randomUUID(), branch: "feat/token-refresh", q: commits });
  return `/api/context?${params}`;
}

async function ask(): Promise<void> {
  const res = await api("GET", hookQuery());
  expect(res.status, res.text).toBe(200);
  expect(res.json.hookSpecificOutput.additionalContext).toContain("## Relevant learnings");
}

beforeAll(async () => {
  sqld = await startSqld();
  proxy = await startDelayProxy(sqld.url, 0);
  const env = { BATON_SECRET: "round-trips-secret-0123456789abcdef" };
  server = await startServer({ databaseUrl: proxy.url, env: { ...env, DATABASE_TIMEOUT_MS: "10000" } });
  const admin = { env: { ...env, DATABASE_URL: sqld.url } };
  expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], admin)).code).toBe(0);
  const made = await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "hook", "--scope", "write"], admin);
  expect(made.code, made.stderr).toBe(0);
  const token = made.stdout.trim();
  api = apiClient(server.url, token);
  await createProject(server.url, token, "web");
  for (let i = 0; i < 30; i++) {
    const content = `Learning ${i}: the token refresh ${i % 2 ? "races the session cookie" : "needs a retry"} after a deploy of the ledger webhook`;
    // Tags: the best matches' tags are searched for too (a second, dependent search).
    const tags = [["auth", "cookies"], ["payments"], ["deploys", "ci"]][i % 3];
    expect((await api("POST", "/api/learnings", { kind: "pattern", content, project: i % 3 ? "web" : undefined, confirmed: true, tags })).status).toBe(201);
  }
  expect((await api("POST", "/api/projects/web/handoffs", { markdown: "## Done\n- refresh fixed", branch: "feat/token-refresh" })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await proxy?.stop();
  await sqld?.stop();
});

/**
 * Round trips while one request is answered (a context, unless said), as a hook asks: the database
 * quiet before it, the token's memory expired (a hook's session starts are minutes apart; the route
 * checks a token it remembers in its own first batch), its bookkeeping written a second later, after
 * the count.
 */
async function alone(request: () => Promise<unknown> = ask): Promise<number> {
  await sleep(TOKEN_MEMORY_MS + FLUSH_MS);
  const before = proxy.requests();
  await request();
  return proxy.requests() - before;
}

describe("a session-start context on a libSQL server", () => {
  it("is answered in one database round trip, and its bookkeeping adds less than one per context", async () => {
    // An instance's first context for these hints learns their project first (a third round trip, once).
    await ask();
    const answered: number[] = [];
    for (let i = 0; i < 3; i++) answered.push(await alone());
    // One: the learnings' search index in memory answers both searches, the hints' and the one their
    // best matches' tags add, at the state the batch read (lib/context/read/read-context.ts readBatch).
    expect(answered).toEqual([1, 1, 1]);
    const before = proxy.requests();
    const contexts = 20;
    for (let i = 0; i < contexts; i++) await ask();
    // The bookkeeping of these contexts written inside the count: every context logged, and what each
    // session was given (read from sqld itself, not through the proxy that counts).
    const db = createClient({ url: sqld.url });
    const written = async () => {
      const [logged, given] = await Promise.all([db.execute("SELECT count(*) AS n FROM context_log"), db.execute("SELECT count(DISTINCT session_id) AS n FROM session_served")]);
      return [Number(logged.rows[0]!.n), Number(given.rows[0]!.n)];
    };
    try {
      await expect.poll(written, { timeout: 15_000 }).toEqual([asked, asked]);
    } finally {
      db.close();
    }
    const perContext = (proxy.requests() - before) / contexts;
    const answering = answered.reduce((a, b) => a + b, 0) / answered.length;
    expect(perContext - answering).toBeLessThan(1);
  });

  it("is answered in at most 2 round trips right after the state changed (what was remembered then read again)", async () => {
    await sleep(TOKEN_MEMORY_MS + FLUSH_MS);
    const db = createClient({ url: sqld.url });
    await db.execute("UPDATE learnings SET content = content || ' (edited)' WHERE seq = 1");
    db.close();
    const before = proxy.requests();
    await ask();
    expect(proxy.requests() - before).toBeLessThanOrEqual(2);
  });
});

describe("a prompt-stage answer on a libSQL server", () => {
  const GATEWAY = ["drops idempotency keys on a retry", "needs its flange timeout above thirty seconds", "logs the quokka header twice", "must be pinned before a canary"];

  beforeAll(async () => {
    // Words no other learning has, so these pass the prompt stage's relevance floor.
    for (const rest of GATEWAY) expect((await api("POST", "/api/learnings", { kind: "insight", content: `The zephyr gateway ${rest}`, project: "web", confirmed: true })).status).toBe(201);
  });

  /** What the prompt hook sends: the session's id and the prompt, many words of it; a small budget, so a second prompt has more to give. */
  async function prompt(sessionId: string): Promise<string[]> {
    const q = "why does the zephyr gateway retry drop idempotency keys after a deploy of the ledger webhook, with the flange timeout and the quokka header";
    const res = await api("GET", `/api/context/prompt?${new URLSearchParams({ project: "web", sessionId, q, budget: "60", format: "json" })}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.learningsShown, res.text).toBeGreaterThan(0);
    expect(res.json.context).toContain("zephyr gateway");
    return res.json.learningIds;
  }

  it("is answered in one round trip: one batch (token, project, what the session was given, the index's changes), the search in memory", async () => {
    const sessionId = crypto.randomUUID();
    let first: string[] = [];
    let second: string[] = [];
    expect(await alone(async () => (first = await prompt(sessionId)))).toBe(1);
    // A later prompt of the same session: what it was given is read (its bookkeeping written since), and only new learnings given.
    expect(await alone(async () => (second = await prompt(sessionId)))).toBe(1);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
  });
});
