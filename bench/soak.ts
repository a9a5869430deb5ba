/**
 * Soak: is the server's memory flat under a steady load? The real built server on the embedded
 * database with `--learnings` learnings gets, for `--minutes`:
 *
 * - `--rate` hook-like context requests a second (a new sessionId, branch, cwd and commit subjects
 *   each, format=claude, source=startup: every one a new cache key);
 * - `--prompt-rate` prompt-stage requests a second (GET /api/context/prompt?sessionId=&q=&cwd=&budget=400,
 *   sessions reused, every other prompt naming one of 48 learnings stored first), if that route
 *   answers on this build;
 * - a write every `--write-every` seconds, a new learning and a new proposal in turn, so cached
 *   contexts are invalidated as they are in use.
 *
 * Every `--sample` seconds it reads the server process group's VmRSS and RssAnon from /proc, its
 * JavaScript heap (used and total, from a diagnostic report the server writes on SIGUSR2) and the
 * window's request figures. Verdict: flat when the last third's median RSS is at most `--tolerance`
 * above the middle third's and the trend over the last two thirds adds no more than that over their
 * span (a fall is flat: the question is whether memory grows).
 *
 *   npm run build && npx tsx bench/soak.ts [--minutes 30] [--rate 50] [--prompt-rate 5]
 *     [--write-every 5] [--sample 10] [--learnings 10000] [--tolerance 0.1]
 *
 * Quick check: --minutes 1. Exit code 0 whatever the verdict; non-zero only on errors.
 */
import { parseArgs } from "node:util";
import { hookQueries, promptQueries, storeNamedLearnings } from "./context-speed/hook-query";
import { tempDir, type RunningServer } from "../test/support/server";
import { seededStore, withServer } from "./context-speed/stores";
import { heapOf, heapReportOptions } from "./soak/heap";
import { groupMemory } from "./soak/memory";
import { report, sampleLine, type Sample } from "./soak/report";
import { promptRouteMissing, startTraffic, writes, type Stream } from "./soak/traffic";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "30" },
    rate: { type: "string", default: "50" },
    "prompt-rate": { type: "string", default: "5" },
    "write-every": { type: "string", default: "5" },
    sample: { type: "string", default: "10" },
    learnings: { type: "string", default: "10000" },
    tolerance: { type: "string", default: "0.1" },
  },
});
const settings = {
  minutes: Number(values.minutes),
  rate: Number(values.rate),
  promptRate: Number(values["prompt-rate"]),
  writeEverySeconds: Number(values["write-every"]),
  sampleSeconds: Number(values.sample),
  learnings: Number(values.learnings),
  tolerance: Number(values.tolerance),
};

async function streams(base: string, token: string): Promise<Stream[]> {
  const context = hookQueries(11);
  const list: Stream[] = [{ name: "context", perSecond: settings.rate, next: () => ({ method: "GET", path: context() }) }];
  const prompt = promptQueries(13);
  const missing = settings.promptRate > 0 ? await promptRouteMissing(base, token, prompt()) : "--prompt-rate 0";
  if (missing) process.stderr.write(`prompt-stage requests left out: ${missing}\n`);
  else {
    await storeNamedLearnings(base, token, 13);
    list.push({ name: "prompt", perSecond: settings.promptRate, next: () => ({ method: "GET", path: prompt() }) });
  }
  list.push({ name: "write", perSecond: 1 / settings.writeEverySeconds, next: writes(17) });
  return list;
}

async function soak(base: string, token: string, pid: number, reports: string): Promise<Sample[]> {
  const list = await streams(base, token);
  const names = list.map((s) => s.name);
  const samples: Sample[] = [{ minutes: 0, memory: groupMemory(pid), heap: await heapOf(pid, reports), streams: {} }];
  console.log(sampleLine(samples[0]!, []) + "before the load");
  const traffic = startTraffic(base, token, list);
  const started = performance.now();
  const end = started + settings.minutes * 60_000;
  try {
    for (let at = started + settings.sampleSeconds * 1000; at <= end + 1; at += settings.sampleSeconds * 1000) {
      await new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));
      const minutes = (performance.now() - started) / 60_000;
      const sample = { minutes, memory: groupMemory(pid), heap: await heapOf(pid, reports), streams: traffic.take() };
      samples.push(sample);
      console.log(sampleLine(sample, names));
    }
  } finally {
    await traffic.stop();
  }
  return samples;
}

const store = await seededStore("embedded", settings.learnings);
const reports = tempDir("baton-soak-reports-");
try {
  process.stderr.write(`${settings.learnings} learnings seeded in ${store.seedSeconds.toFixed(1)} s; soaking for ${settings.minutes} min…\n`);
  const run = (server: RunningServer) => soak(server.url, store.token, server.process.pid!, reports.dir);
  const samples = await withServer(store.databaseUrl, run, heapReportOptions(reports.dir));
  report(samples, settings, settings.tolerance);
} finally {
  await store.stop();
  reports.remove();
}
