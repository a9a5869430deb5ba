import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../test/support/server";
import type { Options, Row } from "./run-size";

// Issue 15's targets.
export const TARGETS = {
  ratioAt10k: 0.25,
  p50At10kMs: 5,
  p99Growth: 2,
  roundTripsInRequest: 2,
  bookkeepingPerRequest: 1,
  delayedP50: (delayMs: number) => 2.5 * delayMs + 10,
};

export type Verdict = { target: string; shape: string; value: string; met: boolean };

const f = (n: number | undefined, d = 0, w = 8) => (n === undefined || Number.isNaN(n) ? "—" : n.toFixed(d)).padStart(w);

function printTables(rows: Row[], o: Options): void {
  console.log(`\nGET /api/context as hooks ask it (new sessionId, branch, cwd and commit subjects each request, format=claude, source=startup)`);
  console.log(`against GET /api/health in the same run; autocannon 10 connections, ${o.duration} s x ${o.rounds} rounds each; built server\n`);
  console.log("shape    | learnings | health rps | uncached rps   p50   p99 | /health | 1 conn p50    p99  (n) | cached rps /health");
  for (const r of rows) {
    console.log(
      `${r.shape.padEnd(8)} | ${f(r.size, 0, 9)} | ${f(r.health.rps, 0, 10)} | ${f(r.uncached.rps, 0, 12)} ${f(r.uncached.p50, 0, 5)} ${f(r.uncached.p99, 0, 5)} | ${f(r.ratio, 2, 7)} | ${f(r.single.p50, 1, 10)} ${f(r.single.p99, 1, 6)} ${String(r.single.samples).padStart(4)} | ${f(r.cached.rps, 0, 10)} ${f(r.cachedRatio, 2, 7)}`,
    );
  }
  console.log("(cached: the old figure, one question repeated and answered from the response cache; 1 conn: one request at a time, ms)");
  if (rows.some((r) => r.uncached.completed === 0)) console.log("(—: no request completed within the run; a longer --duration measures it)");
  const remote = rows.filter((r) => r.remote);
  if (!remote.length) return;
  console.log(`\nsqld primary reached through a proxy adding a ${o.delayMs} ms round trip, one context at a time (${o.isolated} alone, then ${o.remoteRequests} back to back):\n`);
  console.log("learnings | stage  |    p50    p95    p99 | db round trips per request: while answering (alone) | back to back, bookkeeping included | bookkeeping");
  for (const r of remote) {
    for (const [stage, m] of [["start", r.remote!], ["prompt", r.remotePrompt]] as const) {
      if (!m) continue;
      const row = `${f(m.latency.p50, 1, 6)} ${f(m.latency.p95, 1, 6)} ${f(m.latency.p99, 1, 6)} | ${f(m.inRequest, 2, 51)} | ${f(m.total, 2, 34)}`;
      console.log(`${f(r.size, 0, 9)} | ${stage.padEnd(6)} | ${row} | ${f(m.total - m.inRequest, 2, 11)}`);
    }
  }
  console.log("(start: session-start contexts, issue 15's targets; prompt: the prompt stage, sessions of several prompts, no target)");
}

function shapeVerdicts(shape: string, rows: Row[], o: Options): Verdict[] {
  const out: Verdict[] = [];
  const at = (size: number) => rows.find((r) => r.size === size);
  const [r1k, r10k, r100k] = [at(1000), at(10_000), at(100_000)];
  if (r10k) {
    out.push({ target: `uncached throughput at 10k / health >= ${TARGETS.ratioAt10k}`, shape, value: r10k.ratio.toFixed(2), met: r10k.ratio >= TARGETS.ratioAt10k });
    out.push({ target: `one-connection p50 at 10k <= ${TARGETS.p50At10kMs} ms`, shape, value: `${r10k.single.p50.toFixed(1)} ms`, met: r10k.single.p50 <= TARGETS.p50At10kMs });
  }
  if (r1k && r100k) {
    const growth = r100k.single.p99 / r1k.single.p99;
    const loaded = r100k.uncached.p99 / r1k.uncached.p99;
    const loadedText = Number.isNaN(loaded) ? "— (a run with no request completed)" : `${loaded.toFixed(2)}x`;
    out.push({ target: `uncached p99 100k / 1k <= ${TARGETS.p99Growth}x (one connection)`, shape, value: `${growth.toFixed(2)}x (10 connections: ${loadedText})`, met: growth <= TARGETS.p99Growth });
  }
  for (const r of rows) {
    if (!r.remote) continue;
    const m = r.remote;
    const apart = m.total - m.inRequest;
    const limit = TARGETS.delayedP50(o.delayMs);
    out.push({ target: `${r.size}: round trips while answering <= ${TARGETS.roundTripsInRequest}`, shape, value: m.inRequest.toFixed(2), met: m.inRequest <= TARGETS.roundTripsInRequest });
    out.push({ target: `${r.size}: bookkeeping round trips apart < ${TARGETS.bookkeepingPerRequest} per request`, shape, value: apart.toFixed(2), met: apart < TARGETS.bookkeepingPerRequest });
    out.push({ target: `${r.size}: p50 with ${o.delayMs} ms to sqld <= ${limit} ms`, shape, value: `${m.latency.p50.toFixed(1)} ms`, met: m.latency.p50 <= limit });
  }
  return out;
}

/** Prints the tables and issue 15's targets (met or missed) and writes bench/results/context-speed.json. */
export function report(rows: Row[], o: Options & { sizes: number[]; shapes: string[] }): Verdict[] {
  printTables(rows, o);
  const shapes = [...new Set(rows.map((r) => r.shape))];
  const verdicts = shapes.flatMap((s) => shapeVerdicts(s, rows.filter((r) => r.shape === s), o));
  console.log("\nTargets (issue 15):");
  for (const v of verdicts) console.log(`  ${v.met ? "met   " : "MISSED"}  ${v.shape.padEnd(8)} ${v.target}: ${v.value}`);
  const missing = [1000, 10_000, 100_000].filter((s) => !o.sizes.includes(s));
  if (missing.length) console.log(`  (sizes not run: ${missing.join(", ")}; their targets are not judged)`);
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  const file = path.join(ROOT, "bench/results/context-speed.json");
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), options: o, rows, verdicts }, null, 2));
  console.log(`\n(written to ${path.relative(ROOT, file)})`);
  return verdicts;
}
