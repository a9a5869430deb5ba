/**
 * The context engine alone, in this process: serveContext (gather → rank → pack, the bookkeeping
 * buffered) as GET /api/context calls it, without HTTP or Next.js, on bench/context-speed.ts's store and
 * hook queries (new session and hints every request). For finding where a context's own time goes:
 * `--profile FILE` writes a CPU profile of the measured requests alone (open it in Chrome's DevTools or
 * speedscope), with this code's own names.
 *
 *   npx tsx --conditions=react-server bench/engine-speed.ts [--learnings 10000] [--requests 2000] [--profile out.cpuprofile]
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import { contextQuerySchema } from "../lib/context/context-query";
import { hookQueries } from "./context-speed/hook-query";
import { seededStore } from "./context-speed/stores";

const { values } = parseArgs({ options: { learnings: { type: "string", default: "10000" }, requests: { type: "string", default: "2000" }, profile: { type: "string" } } });
const store = await seededStore("embedded", Number(values.learnings));
process.env.DATABASE_URL = store.databaseUrl;
process.env.BATON_SECRET = "bench-context-speed-secret-0123456789";
const { getDb, getClient } = await import("../lib/db/client");
const { sessionPrincipal } = await import("../lib/auth/principal");
const { serveContext } = await import("../lib/context/serve/serve-context");
const { searchIndexAt } = await import("../lib/context/search/index-sync");
const { LINE_HEAD_CAPACITY, lineHeadCache, warmLineHeads } = await import("../lib/context/pack/learning-line");
const db = getDb();
const userId = String((await getClient().execute("SELECT id FROM users")).rows[0]!.id);
const principal = sessionPrincipal(userId);
const next = hookQueries(7);
const ask = async () => {
  const url = new URL(next(), "http://localhost");
  const q = contextQuerySchema.parse(Object.fromEntries(url.searchParams));
  return serveContext(db, principal, q, { dashboardUrl: "http://localhost:3000" });
};
await ask();
let index = await searchIndexAt(db, 1);
while (!index) index = await new Promise((r) => setTimeout(r, 50)).then(() => searchIndexAt(db, 1));
// As the server does when it starts (lib/startup.ts).
await warmLineHeads(index.newest(LINE_HEAD_CAPACITY).reverse());
for (let i = 0; i < 300; i++) await ask();
const inspector = new Session();
if (values.profile) {
  inspector.connect();
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.start");
}
const times: number[] = [];
const headsBefore = lineHeadCache().size;
const paths = new Map<string, number>();
const cpu = process.cpuUsage();
for (let i = 0; i < Number(values.requests); i++) {
  const t = performance.now();
  const served = await ask();
  times.push(performance.now() - t);
  const path = `${served.cached ? "hit" : "miss"} ${served.searched ?? "none"}`;
  paths.set(path, (paths.get(path) ?? 0) + 1);
}
const used = process.cpuUsage(cpu);
const headsCounted = lineHeadCache().size - headsBefore;
if (values.profile) writeFileSync(values.profile, JSON.stringify((await inspector.post("Profiler.stop")).profile));
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.floor(p * (times.length - 1))]!.toFixed(2);
// CPU time per context: what the engine costs with less of the other processes' noise than its latency.
const cpuPer = ((used.user + used.system) / 1000 / times.length).toFixed(2);
console.log(`${values.learnings} learnings, ${times.length} contexts: p50 ${at(0.5)} ms, p90 ${at(0.9)}, p99 ${at(0.99)}, CPU ${cpuPer} ms a context; paths: ${[...paths].map(([k, v]) => `${k} ${v}`).join(", ")}; learning lines counted while measuring ${headsCounted}`);
await store.stop();
process.exit(0);
