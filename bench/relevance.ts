/**
 * Relevance benchmark: does the session-start context (`GET /api/context`) carry the learnings that
 * matter, within a 1,200-token budget, and how does it compare with a recency baseline?
 *
 * Run (needs the built app and CLI):
 *
 *   npm run build && npx tsx bench/relevance.ts
 *
 * Data: bench/relevance/dataset.json — learnings over several projects plus personal ones, and
 * session-start scenarios labelled with the learnings that truly matter. Nothing in the data set is
 * tuned to Baton's ranking; do not change it to make a result look better.
 *
 * For each scenario the real built server is asked for the context with the hints the CLI would send
 * (project, branch, task, q = recent commit subjects and the task title). A relevant learning counts
 * as recalled when its `- [kind] <content>` line is in the context. The baseline is the 5 newest
 * learnings of each kind (by createdAt) among those the context may draw on (the scenario project's
 * and the personal ones), at most 15. Figures are printed and written to bench/results/relevance.json.
 * Exit code 0 even when the targets are missed (a benchmark, not a test); non-zero only on errors.
 */
import { startBenchServer } from "./bench-server";
import { api } from "./relevance/context-client";
import { loadDataset } from "./relevance/dataset";
import { fill } from "./relevance/fill";
import { printReport, writeResults } from "./relevance/report";
import { scoreScenario, type ScenarioResult } from "./relevance/score";
import { summarize } from "./relevance/summary";

async function main() {
  const data = loadDataset();
  const bench = await startBenchServer({ tempPrefix: "baton-bench-", tokenName: "relevance bench" });
  try {
    const call = api(bench.server.url, bench.token);
    await fill(call, data);
    const results: ScenarioResult[] = [];
    for (const s of data.scenarios) results.push(await scoreScenario(call, data, s));
    const summary = summarize(results);
    printReport(data, results, summary);
    writeResults(data, results, summary);
  } finally {
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
