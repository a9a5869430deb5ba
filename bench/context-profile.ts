/**
 * Where a session-start context's time goes: the built server under `node --cpu-prof`, on the
 * context-speed bench's store (bench/seed-store.ts, Zipf-spread words), asked `--requests` hook-like
 * contexts one at a time (each a new session and new hints, as bench/context-speed.ts asks them).
 * Prints the top functions by self time and the time by phase (the frames' source files grouped), and
 * keeps the .cpuprofile files (open them in Chrome's DevTools or speedscope).
 *
 *   npm run build && npx tsx bench/context-profile.ts [--learnings 10000] [--requests 600] [--top 30]
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ROOT } from "../test/support/server";
import { hookQueries } from "./context-speed/hook-query";
import { sequential } from "./context-speed/measure";
import { seededStore, withServer } from "./context-speed/stores";

const { values } = parseArgs({ options: { learnings: { type: "string", default: "10000" }, requests: { type: "string", default: "600" }, top: { type: "string", default: "30" } } });
const size = Number(values.learnings);
const dir = path.join(ROOT, "bench/results/profile", new Date().toISOString().replace(/[:.]/g, "-"));
const sqlFile = path.join(dir, "sql-timing.json");
mkdirSync(dir, { recursive: true });
let requests = 0;

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Phases by where the code lives: the first rule whose pattern the frame's file or function matches. */
const PHASES: [phase: string, pattern: RegExp][] = [
  ["tokenizer (o200k)", /gpt-tokenizer|tokenizer/],
  ["database (libsql: SQLite, FTS5, bm25)", /libsql|@libsql|sqlite|\(program\)/],
  ["drizzle (query building, row mapping)", /drizzle-orm/],
  ["token check (auth)", /lib\/auth|principal|better-auth|token-check/],
  ["ranking", /rank|fuse|hint-query|fts-query|tag-feedback/],
  ["reads (context/read, queries)", /context\/read\/|context-candidates|queries\/|batch-reads|choose-project/],
  ["rendering and packing", /render-sections|pack-context|build-context|fence|relative-time/],
  ["bookkeeping (served log, marks)", /served-log|context-marks|gather\/marks|recent-sessions|rate-limit/],
  ["Next.js and HTTP", /next\/dist|node:_http|node:http|node:net|undici/],
  ["garbage collection", /\(garbage collector\)/],
  ["idle", /\(idle\)/],
];

function summarise(file: string, top: number): void {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map<string, number>();
  const phase = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const name = `${functionName || "(anonymous)"} ${url.replace(/^.*\/(node_modules|\.next)\//, "$1/")}:${lineNumber + 1}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    const where = `${url} ${functionName}`;
    const p = PHASES.find(([, re]) => re.test(where))?.[0] ?? "other JavaScript";
    phase.set(p, (phase.get(p) ?? 0) + us);
  }
  const busy = total - (phase.get("idle") ?? 0);
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
  console.log(`\n${path.relative(ROOT, file)}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (shares below are of the busy time)`);
  console.log("\nBy phase:");
  for (const [p, us] of [...phase].filter(([p]) => p !== "idle").sort((a, b) => b[1] - a[1])) console.log(`  ${pct(us)}  ${p}`);
  console.log(`\nTop ${top} functions by self time:`);
  for (const [name, us] of [...fn].filter(([n]) => !n.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${name}`);
}

const store = await seededStore("embedded", size);
try {
  await withServer(
    store.databaseUrl,
    async (server) => {
      const next = hookQueries(size + 2);
      const times = await sequential(server.url, store.token, next, { seconds: 0, minSamples: Number(values.requests), capSeconds: 600, warmUp: 20 });
      requests = times.length + 20;
      const sorted = [...times].sort((a, b) => a - b);
      console.log(`${times.length} contexts at ${size} learnings, one at a time: p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms (profiled: slower than unprofiled)`);
    },
    { BATON_SQL_TIMING_FILE: sqlFile },
    ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--import", pathToFileURL(path.join(ROOT, "bench/context-profile/sql-timing.mjs")).href],
  );
} finally {
  await store.stop();
}
type Statement = { sql: string; calls: number; prepareMs: number; runMs: number; rows: number };
const statements = (JSON.parse(readFileSync(sqlFile, "utf8")) as Statement[]).sort((a, b) => b.prepareMs + b.runMs - (a.prepareMs + a.runMs));
const sqlTotal = statements.reduce((s, x) => s + x.prepareMs + x.runMs, 0);
console.log(`\nSQLite statements (bench/context-profile/sql-timing.mjs): ${sqlTotal.toFixed(0)} ms in all, ${(sqlTotal / requests).toFixed(2)} ms a context; the top ${Number(values.top) / 2}:`);
console.log("   ms/ctx  prepare   calls/ctx  rows/call  statement");
for (const s of statements.slice(0, Number(values.top) / 2)) {
  const flat = s.sql.replace(/\s+/g, " ");
  console.log(`  ${((s.prepareMs + s.runMs) / requests).toFixed(3).padStart(7)}  ${(s.prepareMs / requests).toFixed(3).padStart(7)}  ${(s.calls / requests).toFixed(2).padStart(10)}  ${(s.rows / Math.max(1, s.calls)).toFixed(0).padStart(9)}  ${flat.slice(0, 160)}${flat.length > 160 ? "…" : ""}`);
}
const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
if (!files.length) throw new Error(`no profile written to ${dir}`);
// The server process is the one that did the work: the largest profile.
const largest = files.map((f) => path.join(dir, f)).sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0]!;
summarise(largest, Number(values.top));
