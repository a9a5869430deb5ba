/**
 * Relevance benchmark: does the context carry the learnings that matter, within its budget? Two halves:
 *
 * - the development set (bench/relevance/dataset.json), the one the ranking was built against:
 *   session starts within 1,200 tokens against a recency baseline (figures comparable with earlier runs);
 * - the held-out half (bench/relevance/heldout.json), written before any tuning against it: session
 *   starts within 700 tokens (and 1,100 for comparison), and sessions with a first prompt, scored as
 *   the start alone at 1,100 against the start at 700 plus the prompt stage at 400
 *   (`GET /api/context/prompt`, same session id; "n/a" on a server without that route);
 * - the second held-out set (bench/relevance/heldout2-*.json, issue 26): six other projects, every
 *   session a start then its first prompt as a person typed it from the ticket alone, recall per session
 *   at start 700, start 1,100 and start 700 + prompt 400; and 20 prompts the learnings do not cover, with
 *   how many learnings the prompt stage injected for them (noise). `--set2` runs this part alone;
 * - the third held-out set (bench/relevance/heldout3-*.json, 2026-11-28): five more projects written the
 *   same two-part way, scored as the second; `--set3` runs this part alone;
 * - the development prompts (bench/relevance/dev-prompts.json, issue 26): the development set's
 *   sessions, each with a first prompt, and 16 noise sessions, scored as the second held-out set is:
 *   the set the prompt stage is tuned on. `--dev-prompts` runs this part alone.
 *
 * Run (needs the built app and CLI):
 *
 *   npm run build && npx tsx bench/relevance.ts
 *
 * Nothing in either data set is tuned to Baton's ranking; do not change them to make a result look
 * better. A relevant learning counts as recalled when its `- <content>` line is in a context the
 * session was given. The development set's requests carry its scenarios' hints as written (q holds the
 * commit subjects and the task title); the held-out half's send what `baton hook session-start` sends
 * (a new session id per session, cwd, branch, remote, the last three commit subjects, the task pinned
 * and imported, its memory on the server headed by its title). The recency baseline is the 5 newest
 * learnings of each kind among those the context may draw on, at most 15. Every context is checked
 * against its budget (tokenEstimate) and Claude Code's 10,000 characters; violations are listed.
 * Figures are printed and written to bench/results/relevance.json. Exit code 0 even when targets are
 * missed (a benchmark, not a test); non-zero only on errors.
 */
import { startBenchServer } from "./bench-server";
import { api, type Api } from "./relevance/context-client";
import { loadDataset, loadHeldout } from "./relevance/dataset";
import { fill, fillTasks } from "./relevance/fill";
import { heldoutResults, printHeldout, printLimits } from "./relevance/heldout-report";
import { loadDevPrompts } from "./relevance/dev-prompts";
import { loadHeldout2 } from "./relevance/heldout2";
import { printHeldout2, type Heldout2Figures } from "./relevance/heldout2-report";
import { scoreHeldout, type HeldoutResult, type PromptStage } from "./relevance/heldout-score";
import { summarizeHeldout } from "./relevance/heldout-summary";
import { Limits } from "./relevance/limits";
import { developmentResults, printReport, writeResults } from "./relevance/report";
import { scoreScenario, type ScenarioResult } from "./relevance/score";
import { summarize } from "./relevance/summary";

/** Runs `measure` against a fresh server with its own database, so the two halves never share learnings. */
async function withServer<T>(measure: (call: Api) => Promise<T>): Promise<T> {
  const bench = await startBenchServer({ tempPrefix: "baton-bench-", tokenName: "relevance bench" });
  try {
    return await measure(api(bench.server.url, bench.token));
  } finally {
    await bench.stop();
  }
}

/** A prompt set (sessions, then noise prompts) on a server of its own: the second held-out set, or the development prompts. */
async function secondSet(limits: Limits, set = loadHeldout2(), title?: string): Promise<Heldout2Figures> {
  const stage: PromptStage = { available: null };
  return withServer(async (call) => {
    await fill(call, set.data);
    const results: HeldoutResult[] = [];
    for (const s of set.data.scenarios) results.push(await scoreHeldout(call, set.data, s, limits, stage));
    const noise: HeldoutResult[] = [];
    for (const s of set.noise) noise.push(await scoreHeldout(call, set.data, s, limits, stage));
    return printHeldout2(set, results, noise, title);
  });
}

async function main() {
  const limits = new Limits();
  // The development prompts: the set the prompt stage is tuned on (issue 26).
  const devPrompts = () => secondSet(limits, loadDevPrompts(), "development prompts");
  if (process.argv.includes("--dev-prompts")) {
    await devPrompts();
    printLimits(limits);
    return;
  }
  for (const n of [2, 3] as const) {
    if (!process.argv.includes(`--set${n}`)) continue;
    await secondSet(limits, loadHeldout2(n), n === 3 ? "third held-out set" : undefined);
    printLimits(limits);
    return;
  }
  const data = loadDataset();
  const development = await withServer(async (call) => {
    await fill(call, data);
    const results: ScenarioResult[] = [];
    for (const s of data.scenarios) results.push(await scoreScenario(call, data, s, limits));
    const summary = summarize(results);
    printReport(data, results, summary);
    return developmentResults(data, results, summary);
  });
  const developmentPrompts = await devPrompts();
  const heldout = loadHeldout();
  const stage: PromptStage = { available: null };
  const heldoutFigures = await withServer(async (call) => {
    await fill(call, heldout);
    await fillTasks(call, heldout);
    const results: HeldoutResult[] = [];
    for (const s of heldout.scenarios) results.push(await scoreHeldout(call, heldout, s, limits, stage));
    const summary = summarizeHeldout(results, stage);
    printHeldout(heldout, results, summary);
    return heldoutResults(heldout, results, summary);
  });
  const heldout2 = await secondSet(limits);
  const heldout3 = await secondSet(limits, loadHeldout2(3), "third held-out set");
  printLimits(limits);
  writeResults({ development, developmentPrompts, heldout: heldoutFigures, heldout2, heldout3, limits: { checked: limits.checked, violations: limits.violations } });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
