/**
 * Speed of GET /api/context against GET /api/health on the real built server, with 1k, 10k and 100k
 * learnings in the store. Both are loaded in the same run (autocannon, 10 connections) and alternated,
 * so the figure that matters is the ratio, not the absolute requests per second of this machine.
 *
 *   npm run build && npx tsx bench/context-speed.ts [--duration 8] [--sizes 1000,10000,100000]
 *
 * Targets (issue 4): at 10k learnings, context throughput >= 60% of health's; p99 at 100k <= 2x p99 at 1k.
 */
import autocannon from "autocannon";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT, startServer, tempDir, type RunningServer } from "../test/support/server";
import { seedStore } from "./seed-store";

// A load generator sends far more than a person's tokens may: a limit this high still runs the limiter.
const BENCH_ENV = { BATON_RATE_LIMIT: "1000000" };

const { values } = parseArgs({
  options: { duration: { type: "string", default: "8" }, sizes: { type: "string", default: "1000,10000,100000" } },
});
const duration = Number(values.duration);
const sizes = values.sizes!.split(",").map(Number);

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
    const token = await seedStore({ DATABASE_URL: databaseUrl }, size);
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
