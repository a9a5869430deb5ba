import type { ScenarioResult } from "./score";

export const TARGET_RECALL = 0.85;
export const TARGET_MARGIN = 0.25;

export type Subset = { scenarios: number; relevant: number; batonRecall: number | null; baselineRecall: number | null };
export type Summary = {
  totalRelevant: number;
  batonRecall: number;
  baselineRecall: number;
  difference: number;
  macro: { batonRecall: number; baselineRecall: number };
  paraphrase: Subset;
  literal: Subset;
  pass: boolean;
};

const sum = (rs: ScenarioResult[], f: (r: ScenarioResult) => number) => rs.reduce((a, r) => a + f(r), 0);

/** Recall over the scenarios whose wording is (or is not) a paraphrase of the learnings they need. */
function subset(results: ScenarioResult[], paraphrase: boolean): Subset {
  const rs = results.filter((r) => r.paraphrase === paraphrase);
  const rel = sum(rs, (r) => r.relevant);
  return {
    scenarios: rs.length,
    relevant: rel,
    batonRecall: rel ? sum(rs, (r) => r.batonHits) / rel : null,
    baselineRecall: rel ? sum(rs, (r) => r.baselineHits) / rel : null,
  };
}

/** Micro recall (all relevant learnings pooled), macro recall (the mean of each scenario's), and the targets. */
export function summarize(results: ScenarioResult[]): Summary {
  const totalRelevant = sum(results, (r) => r.relevant);
  const batonRecall = sum(results, (r) => r.batonHits) / totalRelevant;
  const baselineRecall = sum(results, (r) => r.baselineHits) / totalRelevant;
  const difference = batonRecall - baselineRecall;
  const macro = (f: (r: ScenarioResult) => number) => sum(results, (r) => f(r) / r.relevant) / results.length;
  return {
    totalRelevant,
    batonRecall,
    baselineRecall,
    difference,
    macro: { batonRecall: macro((r) => r.batonHits), baselineRecall: macro((r) => r.baselineHits) },
    paraphrase: subset(results, true),
    literal: subset(results, false),
    pass: batonRecall >= TARGET_RECALL && difference >= TARGET_MARGIN,
  };
}
