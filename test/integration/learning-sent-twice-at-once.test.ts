import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDelayProxy, type DelayProxy } from "../../bench/delay-proxy";
import { apiClient, type ApiClient } from "../support/api";
import { runCli } from "../support/cli";
import { createProject } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

/**
 * A learning sent again while the first is still being stored (a client that gave up waiting and
 * retried, a form sent twice) is stored once, on a libSQL server too: the check for its twin and the
 * insert are one statement. A proxy that delays each round trip to sqld holds the two requests'
 * steps apart, as a busy network would.
 */

let sqld: Sqld;
let proxy: DelayProxy;
let server: RunningServer;
let api: ApiClient;

beforeAll(async () => {
  sqld = await startSqld();
  proxy = await startDelayProxy(sqld.url, 40);
  const env = { BATON_SECRET: "sent-twice-secret-0123456789abcdef" };
  server = await startServer({ databaseUrl: proxy.url, env: { ...env, DATABASE_TIMEOUT_MS: "10000" } });
  const admin = { env: { ...env, DATABASE_URL: sqld.url } };
  expect((await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", "long enough pass"], admin)).code).toBe(0);
  const made = await runCli(["admin", "create-token", "--email", "ana@example.com", "--name", "hook", "--scope", "write"], admin);
  expect(made.code, made.stderr).toBe(0);
  api = apiClient(server.url, made.stdout.trim());
  await createProject(server.url, made.stdout.trim(), "web");
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await proxy?.stop();
  await sqld?.stop();
});

describe("one learning sent several times at once, on sqld", () => {
  it.each([
    ["in a project", { project: "web" }],
    ["personal", {}],
  ])("%s: stored once, every answer the same learning", async (_name, scope) => {
    const body = { kind: "pattern", content: `Run the migrations before the dev server (${Object.keys(scope).length})`, tags: ["db"], ...scope };
    const answers = await Promise.all(Array.from({ length: 6 }, () => api("POST", "/api/learnings", body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json.learning.id)).size).toBe(1);
    const listed = await api("GET", `/api/learnings?limit=50${"project" in scope ? "&project=web" : ""}`);
    expect(listed.json.items.filter((l: { content: string }) => l.content === body.content)).toHaveLength(1);
  }, 60_000);

  it("is written without a transaction held open across round trips (which a client gone mid-way leaves holding sqld's write lock)", async () => {
    const before = proxy.continued();
    const body = { kind: "pattern", content: "Seed the cache before the load test", project: "web" };
    expect((await api("POST", "/api/learnings", body)).status).toBe(201);
    expect((await api("POST", "/api/learnings", body)).status).toBe(200);
    expect(proxy.continued() - before).toBe(0);
  }, 60_000);
});
