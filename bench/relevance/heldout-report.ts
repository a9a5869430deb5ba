import type { HeldoutDataset } from "./dataset";
import { PROMPT_BUDGET, START_BUDGET, WIDE_BUDGET, type HeldoutResult } from "./heldout-score";
import type { HeldoutSummary, Recall } from "./heldout-summary";
import type { Limits } from "./limits";

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padL = (s: string | number, n: number) => String(s).padStart(n);
const fig = (r: Recall | null) => (r === null ? "n/a (prompt stage not available)" : r.recall === null ? "-" : `${r.recall.toFixed(3)} (${r.hits}/${r.relevant})`);

function printRows(results: HeldoutResult[]): void {
  const w = Math.max(8, ...results.map((r) => r.name.length)) + 3;
  const head = `${pad("scenario", w)}${padL("rel", 4)}${padL(`@${START_BUDGET}`, 6)}${padL(`@${WIDE_BUDGET}`, 7)}${padL("+prompt", 8)}`;
  console.log(`${head}${padL("tok", 6)}${padL("tok", 6)}${padL("tokP", 6)}  missed at ${START_BUDGET} (+prompt)`);
  for (const r of results) {
    const p = r.withPrompt;
    const missed = (p ?? r.start).missed.join(", ");
    const cells = `${padL(r.relevant, 4)}${padL(r.start.hits, 6)}${padL(r.wide.hits, 7)}${padL(p ? p.hits : "-", 8)}`;
    const sizes = `${padL(r.start.tokens, 6)}${padL(r.wide.tokens, 6)}${padL(p ? p.promptTokens : "-", 6)}`;
    console.log(`${pad(r.name + (r.paraphrase ? " *" : ""), w)}${cells}${sizes}  ${missed}`);
  }
  console.log(`\n* paraphrase scenario; tok = tokens of the start context at ${START_BUDGET} and ${WIDE_BUDGET}, tokP = of the prompt stage's (${PROMPT_BUDGET})`);
}

/** One row a scenario, then the held-out figures: start scenarios, prompt scenarios, all. */
export function printHeldout(data: HeldoutDataset, results: HeldoutResult[], summary: HeldoutSummary): void {
  const starts = results.filter((r) => r.stage === "start").length;
  console.log(
    `\nHeld-out half: ${data.learnings.length} learnings, ${data.projects.length} projects, ${starts} session starts, ${results.length - starts} sessions with a first prompt\n`,
  );
  printRows(results.filter((r) => r.stage === "start"));
  console.log("");
  printRows(results.filter((r) => r.stage === "prompt"));
  const { start, prompt, all } = summary;
  console.log(`\nsession starts (${start.at700.scenarios}):  start ${START_BUDGET} ${fig(start.at700)}  start ${WIDE_BUDGET} ${fig(start.at1100)}  recency baseline ${fig(start.baseline)}`);
  console.log(`  at ${START_BUDGET}: paraphrase (${start.paraphrase700.scenarios}) ${fig(start.paraphrase700)}  literal (${start.literal700.scenarios}) ${fig(start.literal700)}`);
  console.log(`sessions with a first prompt (${prompt.startOnly1100.scenarios}):  start only ${WIDE_BUDGET} ${fig(prompt.startOnly1100)}  start only ${START_BUDGET} ${fig(prompt.startOnly700)}`);
  console.log(`  start ${START_BUDGET} + prompt ${PROMPT_BUDGET}: ${fig(prompt.startPlusPrompt)}`);
  console.log(`all held-out scenarios (${all.at700.scenarios}), start only:  ${START_BUDGET} ${fig(all.at700)}  ${WIDE_BUDGET} ${fig(all.at1100)}`);
}

/** Contexts over their budget or over Claude Code's characters, from both halves. */
export function printLimits(limits: Limits): void {
  console.log(`\nlimits: ${limits.checked} contexts checked (tokenEstimate <= budget, <= 10,000 characters): ${limits.violations.length} violations`);
  for (const v of limits.violations) console.log(`  ${v.scenario} [${v.request}]: ${v.problem}`);
}

export function heldoutResults(data: HeldoutDataset, results: HeldoutResult[], summary: HeldoutSummary) {
  return {
    budgets: { start: START_BUDGET, wide: WIDE_BUDGET, prompt: PROMPT_BUDGET },
    dataset: { learnings: data.learnings.length, projects: data.projects.length, scenarios: results.length },
    ...summary,
    scenarios: results,
  };
}
