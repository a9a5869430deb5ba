/**
 * Speed of GET /api/context as hooks really ask it, against GET /api/health in the same run, on the
 * real built server with 1k, 10k and 100k learnings, on the embedded database and on a real sqld
 * primary. Every context request is a new session: its own sessionId, branch, directory and three
 * commit subjects (format=claude, source=startup), so none is answered from the response cache. The
 * store's words and the hints' are drawn by Zipf's law over 3,400 words (bench/zipf-words.ts), as in
 * real text, so contexts are ranked by a search, not the recent list a hint of common words falls back
 * to: beside every figure the share of contexts that searched (< 80%: the figure does not count) and
 * the rows matched per searched word (bench/context-speed/search-share.ts). Per shape and size:
 *
 * - uncached throughput with 10 connections (autocannon), and its ratio to /api/health's, the two
 *   alternated `--rounds` times: the ratio is the figure, not this machine's requests per second;
 * - one connection, one request at a time, 3 runs each after one of /api/health: the median of the
 *   runs' p50s beside health's, p99 (and its growth from 1k to 100k); the prompt stage's p50;
 * - the old figure, one question repeated (answered from the cache), as a secondary line;
 * - sqld only: the server reaches the primary through bench/delay-proxy.ts adding a `--delay` ms round
 *   trip. Database round trips per context while answering (`--isolated` requests, the database quiet
 *   for `--quiet` ms before and after each), and per context over a window of `--remote-requests`
 *   back-to-back requests closed only when the database is quiet again, so the batched bookkeeping
 *   written after the responses counts; the difference is the bookkeeping. The p50 of that window.
 *
 *   npm run build && npx tsx bench/context-speed.ts [--duration 8] [--rounds 2]
 *     [--sizes 1000,10000,100000] [--shapes embedded,sqld] [--delay 20] [--remote-requests 100] [--isolated 10] [--quiet 3000]
 *
 * Quick check: --duration 2 --rounds 1 --sizes 1000 --remote-requests 20 --isolated 3
 * Targets (issues 15 and 25) are printed next to the figures; the exit code is 0 whether they are met or not.
 */
import { parseArgs } from "node:util";
import { report } from "./context-speed/report";
import { runSize, type Options, type Row } from "./context-speed/run-size";
import { SHAPES, type Shape } from "./context-speed/stores";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "8" },
    rounds: { type: "string", default: "2" },
    sizes: { type: "string", default: "1000,10000,100000" },
    shapes: { type: "string", default: SHAPES.join(",") },
    delay: { type: "string", default: "20" },
    "remote-requests": { type: "string", default: "100" },
    isolated: { type: "string", default: "10" },
    quiet: { type: "string", default: "3000" },
  },
});

const sizes = values.sizes!.split(",").map(Number);
const shapes = values.shapes!.split(",").map((s) => s.trim());
for (const s of shapes) if (!(SHAPES as readonly string[]).includes(s)) throw new Error(`--shapes: unknown shape "${s}" (${SHAPES.join(", ")})`);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`--sizes: whole numbers, comma-separated (got "${values.sizes}")`);
const options: Options = {
  duration: Number(values.duration),
  rounds: Number(values.rounds),
  delayMs: Number(values.delay),
  remoteRequests: Number(values["remote-requests"]),
  isolated: Number(values.isolated),
  quietMs: Number(values.quiet),
};

const rows: Row[] = [];
for (const shape of shapes as Shape[]) {
  for (const size of sizes) rows.push(await runSize(shape, size, options));
}
report(rows, { ...options, sizes, shapes });
