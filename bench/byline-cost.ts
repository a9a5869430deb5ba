/**
 * What naming a teammate as a learning's writer costs (issue 21: `- [kind] content (0.83, by carla)`),
 * and marking a stale learning's age (issue 27: `…, 5mo` once past 90 days): the pure context engine on
 * the relevance development set's learnings, per project, at a budget, as the reader's own learnings,
 * as a teammate's (a five-letter name), and as the reader's own read 200 days later (every one stale).
 * Prints the learnings section's tokens and how many learnings fit. No server, no clock.
 *
 *   npx tsx bench/byline-cost.ts [--budget 2000]
 */
import { parseArgs } from "node:util";
import { buildContext } from "../lib/context/pack/build-context";
import type { ContextLearning } from "../lib/context/context-types";
import { countTokens } from "../lib/context/pack/tokenizer";
import { contextData, contextOptions, kindCounts } from "../test/support/context-data";
import { loadDataset } from "./relevance/dataset";

const { values } = parseArgs({ options: { budget: { type: "string", default: "2000" } } });
const budget = Number(values.budget);
const now = new Date("2026-11-26T12:00:00Z");
const { learnings } = loadDataset();
const projects = [...new Set(learnings.map((l) => l.project).filter((p): p is string => p !== null))];

const later = new Date(now.getTime() + 200 * 86_400_000);
const totals = { own: { tokens: 0, shown: 0 }, team: { tokens: 0, shown: 0 }, stale: { tokens: 0, shown: 0 } };
console.log(`budget ${budget}: learnings section tokens / learnings shown, own vs a teammate's vs own 200 days later`);
for (const project of projects) {
  const mine = learnings.filter((l) => l.project === project || l.project === null);
  const listed = (team: boolean): ContextLearning[] =>
    mine.map((l, i) => ({
      id: l.key,
      kind: l.kind,
      content: l.content,
      confirmed: l.confirmed,
      relevance: Math.round((1 - i / mine.length) * 100) / 100,
      writtenAt: new Date(l.createdAt),
      ...(team && l.project ? { writer: { name: "carla" } } : {}),
    }));
  const row = (team: boolean, stale = false) => {
    const built = buildContext(contextData({ now: stale ? later : now, learnings: listed(team), learningCounts: kindCounts(mine.length) }), contextOptions({ budget }), countTokens);
    const section = built.sections.find((s) => s.name === "learnings")!;
    const key = stale ? "stale" : team ? "team" : "own";
    totals[key].tokens += section.tokens;
    totals[key].shown += built.learningsShown;
    return `${String(section.tokens).padStart(5)} / ${String(built.learningsShown).padStart(3)}`;
  };
  console.log(`${project.padEnd(14)} own ${row(false)}   teammate's ${row(true)}   stale ${row(false, true)}`);
}
const per = (t: { tokens: number; shown: number }) => (t.tokens / Math.max(1, t.shown)).toFixed(1);
const all = (t: { tokens: number; shown: number }) => `${t.tokens} tok, ${t.shown} shown (${per(t)} tok each)`;
console.log(`all            own ${all(totals.own)}   teammate's ${all(totals.team)}   stale ${all(totals.stale)}`);
