/**
 * What naming a teammate as a learning's writer costs (issue 21: `- [kind] content (0.83, by bo, 3 d
 * ago)`): the pure context engine on the relevance development set's learnings, per project, at a
 * budget, once as the reader's own learnings and once as a teammate's (a five-letter name, their
 * stored ages). Prints the learnings section's tokens and how many learnings fit. No server, no clock.
 *
 *   npx tsx bench/byline-cost.ts [--budget 2000]
 */
import { parseArgs } from "node:util";
import { buildContext } from "../lib/context/build-context";
import type { ContextLearning } from "../lib/context/context-types";
import { countTokens } from "../lib/context/tokenizer";
import { contextData, contextOptions, kindCounts } from "../test/support/context-data";
import { loadDataset } from "./relevance/dataset";

const { values } = parseArgs({ options: { budget: { type: "string", default: "2000" } } });
const budget = Number(values.budget);
const now = new Date("2026-11-26T12:00:00Z");
const { learnings } = loadDataset();
const projects = [...new Set(learnings.map((l) => l.project).filter((p): p is string => p !== null))];

const totals = { own: { tokens: 0, shown: 0 }, team: { tokens: 0, shown: 0 } };
console.log(`budget ${budget}: learnings section tokens / learnings shown, own vs a teammate's`);
for (const project of projects) {
  const mine = learnings.filter((l) => l.project === project || l.project === null);
  const listed = (team: boolean): ContextLearning[] =>
    mine.map((l, i) => ({
      id: l.key,
      kind: l.kind,
      content: l.content,
      confirmed: l.confirmed,
      relevance: Math.round((1 - i / mine.length) * 100) / 100,
      ...(team && l.project ? { writer: { name: "carla", at: new Date(l.createdAt) } } : {}),
    }));
  const row = (team: boolean) => {
    const built = buildContext(contextData({ now, learnings: listed(team), learningCounts: kindCounts(mine.length) }), contextOptions({ budget }), countTokens);
    const section = built.sections.find((s) => s.name === "learnings")!;
    const key = team ? "team" : "own";
    totals[key].tokens += section.tokens;
    totals[key].shown += built.learningsShown;
    return `${String(section.tokens).padStart(5)} / ${String(built.learningsShown).padStart(3)}`;
  };
  console.log(`${project.padEnd(14)} own ${row(false)}   teammate's ${row(true)}`);
}
const per = (t: { tokens: number; shown: number }) => (t.tokens / Math.max(1, t.shown)).toFixed(1);
console.log(`all            own ${totals.own.tokens} tok, ${totals.own.shown} shown (${per(totals.own)} tok each)   teammate's ${totals.team.tokens} tok, ${totals.team.shown} shown (${per(totals.team)} tok each)`);
