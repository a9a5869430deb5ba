import { lineHead } from "../../lib/context/pack/learning-line";
import { LEARNING_KINDS } from "../../lib/rules";
import { contextUrl, getContext, type Api } from "./context-client";
import type { Dataset, Learning, Scenario } from "./dataset";
import type { Limits } from "./limits";

export const BUDGET = 1200;
const BASELINE_PER_KIND = 5;
// Diagnostics only: a budget and length no context reaches, to see the whole ranking.
const FULL_RANKING_BUDGET = 32_000;
const FULL_RANKING_MAX_CHARS = 200_000;

export type ScenarioResult = {
  name: string;
  project: string;
  paraphrase: boolean;
  relevant: number;
  batonHits: number;
  baselineHits: number;
  tokenEstimate: number;
  learningsShown: number;
  learningsTotal: number;
  batonMissed: { key: string; rankInFullRanking: number | null }[];
  baselineMissed: string[];
};

const lineOf = (l: Learning) => lineHead(l);

/** Index of the learning line in the context's learning lines, or -1. */
export function positionIn(contextText: string, l: Learning): number {
  const want = lineOf(l);
  const lines = contextText.split("\n").filter((line) => line.startsWith("- "));
  return lines.findIndex((line) => line === want || line.startsWith(`${want} (`));
}

/** The recency baseline: the newest BASELINE_PER_KIND learnings of each kind among those available. */
export function baselineKeys(data: Pick<Dataset, "learnings">, project: string): Set<string> {
  const pool = data.learnings.filter((l) => l.project === project || l.project === null);
  const keys = new Set<string>();
  for (const kind of LEARNING_KINDS) {
    pool
      .filter((l) => l.kind === kind)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, BASELINE_PER_KIND)
      .forEach((l) => keys.add(l.key));
  }
  return keys;
}

/** Asks for the scenario's context within BUDGET and counts the relevant learnings it carries, and the baseline's. */
export async function scoreScenario(call: Api, data: Dataset, s: Scenario, limits: Limits): Promise<ScenarioResult> {
  const byKey = new Map(data.learnings.map((l) => [l.key, l]));
  const ctx = await getContext(call, contextUrl(s, BUDGET));
  limits.check(s.name, `start ${BUDGET}`, ctx, BUDGET);
  const base = baselineKeys(data, s.project);
  const missed: string[] = [];
  let batonHits = 0;
  let baselineHits = 0;
  for (const key of s.relevant) {
    const l = byKey.get(key)!;
    if (positionIn(ctx.context, l) >= 0) batonHits++;
    else missed.push(key);
    if (base.has(key)) baselineHits++;
  }
  // Diagnostics only: where the missed learnings sit in the full ranking (same hints, no budget pressure).
  const batonMissed: ScenarioResult["batonMissed"] = [];
  if (missed.length) {
    const full = await getContext(call, contextUrl(s, FULL_RANKING_BUDGET, FULL_RANKING_MAX_CHARS));
    for (const key of missed) {
      const pos = positionIn(full.context, byKey.get(key)!);
      batonMissed.push({ key, rankInFullRanking: pos >= 0 ? pos + 1 : null });
    }
  }
  return {
    name: s.name,
    project: s.project,
    paraphrase: Boolean(s.paraphrase),
    relevant: s.relevant.length,
    batonHits,
    baselineHits,
    tokenEstimate: ctx.tokenEstimate,
    learningsShown: ctx.learningsShown,
    learningsTotal: ctx.learningsTotal,
    batonMissed,
    baselineMissed: s.relevant.filter((k) => !base.has(k)),
  };
}
