import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../test/support/server";
import type { Heap } from "./heap";
import { flatness, type Flatness, type Memory } from "./memory";
import type { WindowStats } from "./traffic";

export type Sample = { minutes: number; memory: Memory; heap: Heap | null; streams: Record<string, WindowStats> };

const f = (n: number | undefined, d = 1, w = 7) => (n === undefined ? "—" : n.toFixed(d)).padStart(w);

/** One line of the series, printed as it is sampled. */
export function sampleLine(s: Sample, names: string[]): string {
  const parts = names.map((name) => {
    const w = s.streams[name];
    if (!w) return "";
    const extra = (w.failed ? ` ${w.failed} failed` : "") + (w.skipped ? ` ${w.skipped} skipped` : "");
    return `${name} ${String(w.ok).padStart(5)} ok p50 ${f(w.latency?.p50)} p99 ${f(w.latency?.p99)}${extra}`;
  });
  const heap = `heap ${f(s.heap?.usedMb)}/${f(s.heap?.totalMb, 1, 5)}`;
  return `${f(s.minutes, 2, 6)} min  RSS ${f(s.memory.rssMb)} MiB  anon ${f(s.memory.anonMb)}  ${heap} | ${parts.join(" | ")}`;
}

function describe(label: string, v: Flatness, tolerance: number): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    `${label}: middle third median ${v.middleMedianMb.toFixed(1)} MiB, last third ${v.lastMedianMb.toFixed(1)} MiB (${pct(v.change)}, limit +${pct(tolerance)}${v.change < 0 ? ": it fell" : ""}); ` +
    `least ${v.middleFloorMb.toFixed(1)} and ${v.lastFloorMb.toFixed(1)} MiB; ` +
    `trend over the last two thirds ${v.slopeMbPerMin.toFixed(2)} MiB/min, ${pct(v.trend)} over their span (limit ${pct(tolerance)}): ${v.flat ? "flat" : "NOT FLAT"}`
  );
}

/** The verdict on the series (RSS decides; anonymous memory shown beside it) and bench/results/soak.json. */
export function report(samples: Sample[], settings: Record<string, unknown>, tolerance: number): boolean {
  const series = samples.filter((s) => s.minutes > 0);
  const rss = flatness(series.map((s) => ({ minutes: s.minutes, mb: s.memory.rssMb })), tolerance);
  const anon = flatness(series.map((s) => ({ minutes: s.minutes, mb: s.memory.anonMb })), tolerance);
  const withHeap = series.filter((s) => s.heap);
  const heap = withHeap.length === series.length ? flatness(withHeap.map((s) => ({ minutes: s.minutes, mb: s.heap!.usedMb })), tolerance) : null;
  const totals: Record<string, { ok: number; failed: number; skipped: number }> = {};
  for (const s of series) {
    for (const [name, w] of Object.entries(s.streams)) {
      const t = (totals[name] ??= { ok: 0, failed: 0, skipped: 0 });
      t.ok += w.ok;
      t.failed += w.failed;
      t.skipped += w.skipped;
    }
  }
  console.log(`\nrequests: ${Object.entries(totals).map(([n, t]) => `${n} ${t.ok} ok, ${t.failed} failed, ${t.skipped} skipped`).join("; ")}`);
  const skipped = Object.values(totals).reduce((n, t) => n + t.skipped, 0);
  const slowest = Math.max(...series.map((s) => s.streams.context?.latency?.p50 ?? 0));
  if (skipped || slowest > 1000) {
    console.log(`the server did not keep up with the rate (${skipped} requests skipped at the in-flight limit, context p50 up to ${slowest.toFixed(0)} ms): its memory then holds a queue, not only its caches; a lower --rate tells them apart`);
  }
  if (series.length < 6) console.log(`only ${series.length} samples: too few for a verdict worth much (run longer)`);
  console.log(describe("RSS", rss, tolerance));
  console.log(describe("anonymous (heap and native)", anon, tolerance));
  if (heap) console.log(describe("JavaScript heap used (not after a full GC: it saws)", heap, tolerance));
  else console.log("JavaScript heap: not every sample got a report from the server");
  console.log(`\nverdict: memory ${rss.flat ? "flat" : "NOT FLAT"}`);
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  const file = path.join(ROOT, "bench/results/soak.json");
  writeFileSync(file, JSON.stringify({ date: new Date().toISOString(), settings, totals, verdict: { rss, anon, heap, flat: rss.flat }, samples }, null, 2));
  console.log(`(written to ${path.relative(ROOT, file)})`);
  return rss.flat;
}
