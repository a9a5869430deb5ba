/**
 * Context latency in each database shape, asked as the session-start hook asks: a new sessionId and
 * new commit subjects every request, one request at a time. The baseline, measured in the same run,
 * is the embedded shape; a sqld primary is also reached through a proxy that adds a 20 ms round trip
 * (and counts the round trips a context costs), so the price of distance is visible.
 *
 *   npm run build && npx tsx bench/shapes.ts [--learnings 10000] [--requests 200] [--rtt 20]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ROOT, tempDir, type RunningServer } from "../test/support/server";
import { startSqld } from "../test/support/sqld";
import { withServer as withBenchServer } from "./context-speed/stores";
import { startDelayProxy, type DelayProxy } from "./delay-proxy";
import { randomGenerator, seedStore, sentence } from "./seed-store";

const { values } = parseArgs({
  options: { learnings: { type: "string", default: "10000" }, requests: { type: "string", default: "200" }, rtt: { type: "string", default: "20" } },
});
const LEARNINGS = Number(values.learnings);
const REQUESTS = Number(values.requests);
const RTT_MS = Number(values.rtt);
const WARM_UP = 20;
const SECRET = "bench-shapes-secret-0123456789abcdef";

type Row = { shape: string; p50: number; p95: number; p99: number; roundTrips?: number };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/** What a session-start hook sends: its own session id, branch and recent commit subjects. */
function hookQuery(rand: () => number): string {
  const commits = [sentence(rand), sentence(rand), sentence(rand)].join(" · ");
  const params = new URLSearchParams({ project: "web", format: "claude", source: "startup", sessionId: crypto.randomUUID(), branch: "feat/token-refresh", q: commits });
  return `/api/context?${params}`;
}

async function measure(shape: string, server: RunningServer, token: string, proxy?: DelayProxy): Promise<Row> {
  const rand = randomGenerator(42);
  const ask = async () => {
    const started = performance.now();
    const res = await fetch(server.url + hookQuery(rand), { headers: { authorization: `Bearer ${token}` } });
    await res.text();
    if (res.status !== 200) throw new Error(`${shape}: context answered ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < WARM_UP; i++) await ask();
  const before = proxy?.requests() ?? 0;
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await ask());
  // Buffered bookkeeping is written about once a second: let it land inside the count.
  await new Promise((r) => setTimeout(r, 1500));
  times.sort((a, b) => a - b);
  const row: Row = { shape, p50: percentile(times, 50), p95: percentile(times, 95), p99: percentile(times, 99) };
  if (proxy) row.roundTrips = (proxy.requests() - before) / REQUESTS;
  process.stderr.write(`${shape}: p50 ${row.p50.toFixed(1)} ms\n`);
  return row;
}

/** The built server (bench rate limit) on the shape's database, with this bench's secret and base URL. */
const withServer = <T>(env: Record<string, string>, work: (server: RunningServer) => Promise<T>): Promise<T> =>
  withBenchServer(env.DATABASE_URL!, work, { BATON_SECRET: SECRET, BATON_BASE_URL: "http://baton.test", ...env });

async function main() {
  const tmp = tempDir("baton-bench-shapes-");
  const primary = await startSqld();
  const replica = await startSqld({ primary });
  const far = await startDelayProxy(primary.url, RTT_MS);
  const near = await startDelayProxy(primary.url, 0);
  const rows: Row[] = [];
  try {
    const embeddedUrl = `file:${tmp.dir}/embedded.db`;
    const embeddedToken = await seedStore({ DATABASE_URL: embeddedUrl }, LEARNINGS);
    const token = await seedStore({ DATABASE_URL: primary.url, BATON_SECRET: SECRET }, LEARNINGS);
    process.stderr.write(`${LEARNINGS} learnings seeded in each store; measuring ${REQUESTS} requests per shape…\n`);
    const shapes: [string, Record<string, string>, string, DelayProxy?][] = [
      ["embedded (file)", { DATABASE_URL: embeddedUrl }, embeddedToken],
      ["remote: sqld primary", { DATABASE_URL: near.url }, token, near],
      ["remote: sqld replica", { DATABASE_URL: replica.url }, token],
      ["embedded replica of the primary", { DATABASE_URL: `file:${tmp.dir}/replica.db`, DATABASE_SYNC_URL: primary.url }, token],
      [`remote: sqld primary, ${RTT_MS} ms away`, { DATABASE_URL: far.url }, token, far],
      [`embedded replica, primary ${RTT_MS} ms away`, { DATABASE_URL: `file:${tmp.dir}/far-replica.db`, DATABASE_SYNC_URL: far.url }, token],
    ];
    for (const [shape, env, tok, proxy] of shapes) rows.push(await withServer(env, (server) => measure(shape, server, tok, proxy)));
  } finally {
    await Promise.all([far.stop(), near.stop()]);
    await replica.stop();
    await primary.stop();
    tmp.remove();
  }
  report(rows);
}

function report(rows: Row[]) {
  const base = rows[0]!.p50;
  const f = (n: number) => n.toFixed(1).padStart(7);
  console.log(`\nGET /api/context as the session-start hook asks (new sessionId and commits each time), ${LEARNINGS} learnings, ${REQUESTS} sequential requests, built server\n`);
  console.log(`${"shape".padEnd(44)}    p50     p95     p99  p50/embedded  db round trips per context`);
  for (const r of rows) {
    const trips = r.roundTrips === undefined ? "" : r.roundTrips.toFixed(1);
    console.log(`${r.shape.padEnd(44)}${f(r.p50)} ${f(r.p95)} ${f(r.p99)}  ${(r.p50 / base).toFixed(2).padStart(12)}  ${trips.padStart(10)}`);
  }
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(path.join(ROOT, "bench/results/shapes.json"), JSON.stringify({ date: new Date().toISOString(), learnings: LEARNINGS, requests: REQUESTS, rttMs: RTT_MS, rows }, null, 2));
}

await main();
