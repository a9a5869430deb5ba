import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../test/support/server";
import type { Dataset } from "./dataset";
import { BUDGET, type ScenarioResult } from "./score";
import { TARGET_MARGIN, TARGET_RECALL, type Summary } from "./summary";

const RESULTS = path.join(ROOT, "bench/results/relevance.json");

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padL = (s: string | number, n: number) => String(s).padStart(n);
const f3 = (x: number | null) => (x === null ? "-" : x.toFixed(3));

/** One row a scenario, then the recall figures and whether the targets are met. */
export function printReport(data: Dataset, results: ScenarioResult[], summary: Summary): void {
  const { totalRelevant, batonRecall, baselineRecall, difference, macro, paraphrase: para, literal, pass } = summary;
  const w = Math.max(8, ...results.map((r) => r.name.length)) + 2;
  console.log(`Relevance benchmark: ${data.learnings.length} learnings, ${data.projects.length} projects, ${results.length} scenarios, budget ${BUDGET} tokens\n`);
  console.log(`${pad("scenario", w)}${padL("rel", 4)}${padL("baton", 7)}${padL("base", 6)}${padL("tokens", 8)}${padL("shown", 7)}  missed by Baton`);
  for (const r of results) {
    const miss = r.batonMissed.map((m) => `${m.key}${m.rankInFullRanking ? `@${m.rankInFullRanking}` : "@-"}`).join(", ");
    console.log(
      `${pad(r.name + (r.paraphrase ? " *" : ""), w)}${padL(r.relevant, 4)}${padL(r.batonHits, 7)}${padL(r.baselineHits, 6)}${padL(r.tokenEstimate, 8)}${padL(`${r.learningsShown}/${r.learningsTotal}`, 7)}  ${miss}`,
    );
  }
  console.log(`\n* paraphrase scenario; key@N = rank of a missed learning in the full ranking (no budget), @- = not ranked`);
  console.log(`\nrelevant learnings: ${totalRelevant}`);
  console.log(`recall (micro)  Baton ${f3(batonRecall)}  baseline ${f3(baselineRecall)}  difference ${f3(difference)}`);
  console.log(`recall (macro)  Baton ${f3(macro.batonRecall)}  baseline ${f3(macro.baselineRecall)}`);
  console.log(`paraphrase (${para.scenarios} scenarios)  Baton ${f3(para.batonRecall)}  baseline ${f3(para.baselineRecall)}`);
  console.log(`literal (${literal.scenarios} scenarios)     Baton ${f3(literal.batonRecall)}  baseline ${f3(literal.baselineRecall)}`);
  console.log(
    `targets: recall >= ${TARGET_RECALL} (${batonRecall >= TARGET_RECALL ? "ok" : "missed"}), difference >= ${TARGET_MARGIN} (${difference >= TARGET_MARGIN ? "ok" : "missed"}) → ${pass ? "PASS" : "FAIL"}`,
  );
}

/** The same figures, and every scenario's, as they go into bench/results/relevance.json. */
export function developmentResults(data: Dataset, results: ScenarioResult[], summary: Summary) {
  const { totalRelevant, batonRecall, baselineRecall, difference, macro, paraphrase, literal, pass } = summary;
  return {
    budget: BUDGET,
    dataset: { learnings: data.learnings.length, projects: data.projects.length, scenarios: results.length },
    relevant: totalRelevant,
    batonRecall,
    baselineRecall,
    difference,
    macro,
    paraphrase,
    literal,
    targets: { recall: TARGET_RECALL, difference: TARGET_MARGIN },
    pass,
    scenarios: results,
  };
}

/** Everything measured in this run, as JSON in bench/results/relevance.json. */
export function writeResults(json: Record<string, unknown>): void {
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify({ at: new Date().toISOString(), ...json }, null, 2) + "\n");
  console.log(`\nwritten: ${path.relative(ROOT, RESULTS)}`);
}
