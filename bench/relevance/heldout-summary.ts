import type { Carried, HeldoutResult, PromptStage } from "./heldout-score";

/** Recall pooled over scenarios (micro): relevant learnings carried / relevant learnings. */
export type Recall = { scenarios: number; relevant: number; hits: number; recall: number | null };
export type HeldoutSummary = {
  /** Session-start scenarios: at the start budget, at the wide one, the recency baseline; paraphrase and literal at the start budget. */
  start: { at700: Recall; at1100: Recall; baseline: Recall; paraphrase700: Recall; literal700: Recall };
  /** Prompt scenarios: start alone at the wide budget against start + first prompt (null: no prompt stage on this server). */
  prompt: { startOnly1100: Recall; startOnly700: Recall; startPlusPrompt: Recall | null; promptAvailable: boolean };
  /** Every scenario, start alone: the figures a ranking change is judged by (most labels). */
  all: { at700: Recall; at1100: Recall };
};

function recall(results: HeldoutResult[], hits: (r: HeldoutResult) => number): Recall {
  const relevant = results.reduce((n, r) => n + r.relevant, 0);
  const carried = results.reduce((n, r) => n + hits(r), 0);
  return { scenarios: results.length, relevant, hits: carried, recall: relevant ? carried / relevant : null };
}

const at = (pick: (r: HeldoutResult) => Carried | null) => (r: HeldoutResult) => pick(r)?.hits ?? 0;

export function summarizeHeldout(results: HeldoutResult[], stage: PromptStage): HeldoutSummary {
  const starts = results.filter((r) => r.stage === "start");
  const prompts = results.filter((r) => r.stage === "prompt");
  const promptAvailable = stage.available === true && prompts.every((r) => r.withPrompt);
  return {
    start: {
      at700: recall(starts, at((r) => r.start)),
      at1100: recall(starts, at((r) => r.wide)),
      baseline: recall(starts, (r) => r.baselineHits),
      paraphrase700: recall(
        starts.filter((r) => r.paraphrase),
        at((r) => r.start),
      ),
      literal700: recall(
        starts.filter((r) => !r.paraphrase),
        at((r) => r.start),
      ),
    },
    prompt: {
      startOnly1100: recall(prompts, at((r) => r.wide)),
      startOnly700: recall(prompts, at((r) => r.start)),
      startPlusPrompt: promptAvailable ? recall(prompts, at((r) => r.withPrompt)) : null,
      promptAvailable,
    },
    all: { at700: recall(results, at((r) => r.start)), at1100: recall(results, at((r) => r.wide)) },
  };
}
