/**
 * Speed of GET /api/context against GET /api/health on the real built server, with 1k, 10k and 100k
 * learnings in the store. Both are loaded in the same run (autocannon, 10 connections) and alternated,
 * so the figure that matters is the ratio, not the absolute requests per second of this machine.
 *
 *   npm run build && npx tsx bench/context-speed.ts [--duration 8] [--sizes 1000,10000,100000]
 *
 * Targets (issue 4): at 10k learnings, context throughput >= 60% of health's; p99 at 100k <= 2x p99 at 1k.
 */
import { createClient, type Client } from "@libsql/client";
import autocannon from "autocannon";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { LEARNING_KINDS } from "../lib/rules";
import { runCli } from "../test/support/cli";
import { ROOT, startServer, tempDir, type RunningServer } from "../test/support/server";

// A load generator sends far more than a person's tokens may: a limit this high still runs the limiter.
const BENCH_ENV = { BATON_RATE_LIMIT: "1000000" };

const { values } = parseArgs({
  options: { duration: { type: "string", default: "8" }, sizes: { type: "string", default: "1000,10000,100000" } },
});
const duration = Number(values.duration);
const sizes = values.sizes!.split(",").map(Number);

// Words of a real codebase's learnings; drawn with a skewed distribution so some are common and
// some rare, as in real text (the FTS index's cost depends on how many rows a query word matches).
const WORDS = `run migrations before tests deploy staging production cache redis session cookie token refresh auth login
  webhook stripe payment ledger refund currency timezone cron job queue worker retry timeout database index query
  postgres sqlite libsql schema column constraint foreign key transaction lock deadlock pool connection server client
  api route handler middleware proxy header cors origin csrf rate limit pagination cursor offset sort filter search
  react component hook state effect memo suspense server action form validation zod error boundary toast modal
  docker image build layer kubernetes pod node helm chart terraform module variable output secret vault rotate key
  ci pipeline cache artifact lint typecheck eslint prettier format commit branch rebase merge review pull request
  feature flag rollout canary metric alert dashboard log trace span latency p99 memory leak heap profile cpu
  mobile expo android ios release store build native module camera barcode push notification offline sync
  analytics dbt model warehouse bigquery partition backfill airflow dag schedule cost budget quota invoice`
  .split(/\s+/)
  .filter(Boolean);

function randomGenerator(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function sentence(rand: () => number): string {
  const n = 8 + Math.floor(rand() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(WORDS.length * rand() ** 2)]!);
  return words.join(" ").replace(/^./, (c) => c.toUpperCase()) + ".";
}

async function seedStore(databaseUrl: string, size: number): Promise<string> {
  const env = { DATABASE_URL: databaseUrl };
  const user = await runCli(["admin", "create-user", "--email", "bench@example.com", "--password", "bench password"], { env });
  if (user.code !== 0) throw new Error(user.stderr);
  const db: Client = createClient({ url: databaseUrl });
  const userId = String((await db.execute("SELECT id FROM users")).rows[0]!.id);
  await db.batch(
    [
      { sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p-web', 'web', 'Web', ?, 0, 0)", args: [userId] },
      { sql: "INSERT INTO project_members (project_id, user_id, role, created_at) VALUES ('p-web', ?, 'owner', 0)", args: [userId] },
      {
        sql: "INSERT INTO seeds (user_id, version, identity, state, extra, created_at, updated_at) VALUES (?, '1.0.0', ?, '{}', '{}', 0, 0)",
        args: [userId, JSON.stringify({ aiName: "Ivy", principalName: "Bench", preferences: { responseStyle: "concise" } })],
      },
      {
        sql: "INSERT INTO handoffs (id, project_id, user_id, author, markdown, session_id, branch, created_at) VALUES ('h1', 'p-web', ?, 'bench', ?, 's1', 'main', ?)",
        args: [userId, "## Done\n- token refresh race fixed\n## Next\n- migrate sessions table\n", Date.now() - 3_600_000],
      },
    ],
    "write",
  );
  const rand = randomGenerator(size);
  const start = Date.now() - 180 * 86_400_000;
  for (let done = 0; done < size; done += 5000) {
    const batch = [];
    for (let i = done; i < Math.min(size, done + 5000); i++) {
      const at = start + Math.floor((i / size) * 180 * 86_400_000);
      batch.push({
        sql: `INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at)
              VALUES (?, ?, ?, ?, ?, 'bench', ?, ?, ?, ?)`,
        args: [`l${i}`, userId, rand() < 0.6 ? "p-web" : null, LEARNING_KINDS[i % LEARNING_KINDS.length]!, sentence(rand), rand() < 0.8 ? 1 : 0, JSON.stringify([WORDS[i % WORDS.length]]), at, at],
      });
    }
    await db.batch(batch, "write");
  }
  db.close();
  const token = await runCli(["admin", "create-token", "--email", "bench@example.com", "--name", "bench"], { env });
  if (token.code !== 0) throw new Error(token.stderr);
  return token.stdout.trim();
}

type Load = { rps: number; p50: number; p99: number; errors: number; non2xx: number };

/** With `unique`, every request asks a different question (a made-up word added), so none is answered from the cache. */
async function load(url: string, token: string, unique = false): Promise<Load> {
  let n = 0;
  const options: autocannon.Options = {
    url,
    connections: 10,
    duration,
    headers: { authorization: `Bearer ${token}` },
    ...(unique
      ? {
          requests: [
            {
              setupRequest: (req) => ({ ...req, path: `${new URL(url).pathname}${new URL(url).search}+zq${(n++).toString(36)}` }),
            },
          ],
        }
      : {}),
  };
  const result = await autocannon(options);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

function mean(loads: Load[]): Load {
  const avg = (k: keyof Load) => loads.reduce((s, l) => s + l[k], 0) / loads.length;
  return { rps: avg("rps"), p50: avg("p50"), p99: avg("p99"), errors: avg("errors"), non2xx: avg("non2xx") };
}

const CONTEXT_QUERY =
  "/api/context?project=web&budget=2000&branch=feat/token-refresh&cwd=/home/dev/src/web&q=" +
  encodeURIComponent("Fix token refresh race · Add migration for sessions table · Update webhook retry tests");

const rows: { size: number; health: Load; context: Load; uncached: Load; ratio: number }[] = [];
for (const size of sizes) {
  const tmp = tempDir("baton-bench-");
  const databaseUrl = `file:${tmp.dir}/bench.db`;
  let server: RunningServer | undefined;
  try {
    const seeded = performance.now();
    const token = await seedStore(databaseUrl, size);
    server = await startServer({ databaseUrl, env: BENCH_ENV });
    process.stderr.write(`${size} learnings seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s; loading…\n`);
    const check = await fetch(server.url + CONTEXT_QUERY, { headers: { authorization: `Bearer ${token}` } });
    const body = (await check.json()) as { learningsTotal: number; learningsShown: number; tokenEstimate: number };
    if (!check.ok || body.learningsTotal !== size) throw new Error(`context check failed: ${check.status} ${JSON.stringify(body).slice(0, 200)}`);
    await load(server.url + "/api/health", token); // warm-up of both routes, not counted
    await load(server.url + CONTEXT_QUERY, token);
    const health: Load[] = [];
    const context: Load[] = [];
    for (let round = 0; round < 2; round++) {
      health.push(await load(server.url + "/api/health", token));
      context.push(await load(server.url + CONTEXT_QUERY, token));
    }
    const uncached: Load[] = [await load(server.url + CONTEXT_QUERY, token, true)];
    const h = mean(health);
    const c = mean(context);
    const u = mean(uncached);
    if (c.errors || c.non2xx || h.errors || h.non2xx || u.errors || u.non2xx) throw new Error(`errors under load: ${JSON.stringify({ h, c, u })}`);
    rows.push({ size, health: h, context: c, uncached: u, ratio: c.rps / h.rps });
  } finally {
    await server?.stop();
    tmp.remove();
  }
}

const f = (n: number, d = 0) => n.toFixed(d).padStart(8);
console.log(`\nGET /api/context vs GET /api/health, autocannon 10 connections, ${duration} s x 2 rounds each, built server\n`);
console.log("learnings | health rps   p50   p99 | context rps   p50   p99 | ratio | uncached rps   p50   p99");
for (const r of rows) {
  console.log(
    `${String(r.size).padStart(9)} | ${f(r.health.rps)} ${f(r.health.p50, 1)} ${f(r.health.p99, 1)} | ${f(r.context.rps)} ${f(r.context.p50, 1)} ${f(r.context.p99, 1)} | ${r.ratio.toFixed(2)} | ${f(r.uncached.rps)} ${f(r.uncached.p50, 1)} ${f(r.uncached.p99, 1)}`,
  );
}
console.log("(context: the same question repeated, as session starts of one repository are; uncached: a different question each time)");
const at10k = rows.find((r) => r.size === 10_000);
const at1k = rows.find((r) => r.size === 1000);
const at100k = rows.find((r) => r.size === 100_000);
if (at10k) console.log(`\nthroughput at 10k: context/health = ${at10k.ratio.toFixed(2)} (target >= 0.60) ${at10k.ratio >= 0.6 ? "ok" : "MISSED"}`);
if (at1k && at100k) {
  const growth = at100k.context.p99 / at1k.context.p99;
  console.log(`p99 growth 1k → 100k: ${growth.toFixed(2)}x (target <= 2) ${growth <= 2 ? "ok" : "MISSED"}`);
  const uncachedGrowth = at100k.uncached.p99 / at1k.uncached.p99;
  console.log(`p99 growth 1k → 100k, uncached: ${uncachedGrowth.toFixed(2)}x`);
}
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench/results/context-speed.json"), JSON.stringify({ date: new Date().toISOString(), duration, rows }, null, 2));
