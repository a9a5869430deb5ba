import type { HeldoutResult } from "./heldout-score";
import { sharedStemShare, type Heldout2 } from "./heldout2";

/** Recall averaged over sessions (each session's share of its labels), as issue 26 states its target. */
function macro(results: HeldoutResult[], hits: (r: HeldoutResult) => number): number {
  return results.reduce((sum, r) => sum + hits(r) / r.relevant, 0) / Math.max(1, results.length);
}
const micro = (results: HeldoutResult[], hits: (r: HeldoutResult) => number) => {
  const relevant = results.reduce((n, r) => n + r.relevant, 0);
  const got = results.reduce((n, r) => n + hits(r), 0);
  return `${(got / relevant).toFixed(3)} (${got}/${relevant})`;
};

export type Heldout2Figures = {
  sharedStems: { pairs: number; sharing: number };
  macro: { start700: number; start1100: number; startPlusPrompt: number };
  promptAnswered: number;
  noise: { prompts: number; meanInjected: number; answered: number };
};

/** Prints the second held-out set's figures: recall by stage (per session and pooled), paraphrase split, noise. */
export function printHeldout2(set: Heldout2, results: HeldoutResult[], noise: HeldoutResult[], title = "second held-out set"): Heldout2Figures {
  const shared = sharedStemShare(set.data);
  const start = (r: HeldoutResult) => r.start.hits;
  const wide = (r: HeldoutResult) => r.wide.hits;
  const both = (r: HeldoutResult) => r.withPrompt?.hits ?? r.start.hits;
  const figures: Heldout2Figures = {
    sharedStems: shared,
    macro: { start700: macro(results, start), start1100: macro(results, wide), startPlusPrompt: macro(results, both) },
    promptAnswered: results.filter((r) => (r.withPrompt?.promptShown ?? 0) > 0).length,
    noise: {
      prompts: noise.length,
      meanInjected: noise.reduce((n, r) => n + (r.withPrompt?.promptShown ?? 0), 0) / Math.max(1, noise.length),
      answered: noise.filter((r) => (r.withPrompt?.promptShown ?? 0) > 0).length,
    },
  };
  console.log(`\n${title} (${results.length} sessions, ${set.data.learnings.length} learnings; each starts, then sends its first prompt)`);
  for (const r of results) {
    const p = r.withPrompt;
    console.log(
      `  ${r.name.padEnd(34)} ${String(r.relevant).padStart(2)}  start ${r.start.hits}  wide ${r.wide.hits}  +prompt ${p?.hits ?? "-"} (prompt shown ${p?.promptShown ?? "-"})${r.paraphrase ? "  *" : ""}`,
    );
  }
  console.log(`  labelled prompt–learning pairs sharing a word stem: ${shared.sharing}/${shared.pairs} (${(shared.sharing / shared.pairs).toFixed(2)})`);
  const m = figures.macro;
  console.log(`  per session: start 700 ${m.start700.toFixed(3)}  start 1100 ${m.start1100.toFixed(3)}  start 700 + prompt 400 ${m.startPlusPrompt.toFixed(3)}  (gain over 1100: ${(m.startPlusPrompt - m.start1100).toFixed(3)}; target >= 0.05)`);
  console.log(`  pooled:      start 700 ${micro(results, start)}  start 1100 ${micro(results, wide)}  start 700 + prompt 400 ${micro(results, both)}`);
  const para = results.filter((r) => r.paraphrase);
  const literal = results.filter((r) => !r.paraphrase);
  console.log(`  paraphrase (${para.length}): 700 ${micro(para, start)}  700+prompt ${micro(para, both)};  literal (${literal.length}): 700 ${micro(literal, start)}  700+prompt ${micro(literal, both)}`);
  console.log(`  the prompt stage answered something in ${figures.promptAnswered} of ${results.length} first prompts`);
  const n = figures.noise;
  console.log(`  noise: ${n.prompts} prompts the learnings do not cover; the prompt stage injected ${n.meanInjected.toFixed(2)} learnings on average (answered ${n.answered}; target <= 0.3)`);
  return figures;
}
