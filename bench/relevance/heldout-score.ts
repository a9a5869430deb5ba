import { randomUUID } from "node:crypto";
import { getContext, getPromptContext, promptUrl, sessionStartUrl, type Api, type ContextJson } from "./context-client";
import type { HeldoutDataset, HeldoutScenario, Learning } from "./dataset";
import type { Limits } from "./limits";
import { baselineKeys, positionIn } from "./score";

/** The session-start budget the prompt stage is meant to go with, and the one it is compared against. */
export const START_BUDGET = 700;
export const WIDE_BUDGET = 1100;
export const PROMPT_BUDGET = 400;

/** What one context request carried: how many relevant learnings, its size, which relevant ones it lacked. */
export type Carried = { hits: number; tokens: number; chars: number; shown: number; missed: string[] };
export type HeldoutResult = {
  name: string;
  project: string;
  stage: "start" | "prompt";
  paraphrase: boolean;
  relevant: number;
  baselineHits: number;
  /** Session start within START_BUDGET. */
  start: Carried;
  /** Session start within WIDE_BUDGET (another session, same hints). */
  wide: Carried;
  /**
   * Prompt scenarios: the start (START_BUDGET) and the first prompt's stage (PROMPT_BUDGET) together
   * (tokens, characters and shown summed over both); null when not run.
   */
  withPrompt: (Carried & { promptTokens: number; promptChars: number; promptShown: number; promptHits: number }) | null;
};

/** Whether the server has the prompt stage: unknown until the first prompt request answers. */
export type PromptStage = { available: boolean | null };

function carried(relevant: Learning[], contexts: string[], tokens: number, shown: number): Carried {
  const missed = relevant.filter((l) => !contexts.some((c) => positionIn(c, l) >= 0)).map((l) => l.key);
  return { hits: relevant.length - missed.length, tokens, chars: contexts.reduce((n, c) => n + c.length, 0), shown, missed };
}

/** The first prompt's stage after a start in the same session; null when the server answers 404 (no such route). */
async function promptStage(call: Api, s: HeldoutScenario, sessionId: string, relevant: Learning[], start: ContextJson, limits: Limits, stage: PromptStage) {
  if (s.stage !== "prompt" || stage.available === false) return null;
  const ctx = await getPromptContext(call, promptUrl(s, sessionId, PROMPT_BUDGET));
  stage.available = ctx !== null;
  if (!ctx) return null;
  limits.check(s.name, `prompt ${PROMPT_BUDGET}`, ctx, PROMPT_BUDGET);
  const both = carried(relevant, [start.context, ctx.context], start.tokenEstimate + ctx.tokenEstimate, start.learningsShown + (ctx.learningsShown ?? 0));
  const startHits = carried(relevant, [start.context], 0, 0).hits;
  return { ...both, promptTokens: ctx.tokenEstimate, promptChars: ctx.context.length, promptShown: ctx.learningsShown ?? 0, promptHits: both.hits - startHits };
}

/**
 * One held-out scenario as two sessions: one starts within START_BUDGET and, for a prompt scenario,
 * sends its first prompt (same session id); the other starts within WIDE_BUDGET. Every context is
 * checked against its budget and Claude Code's characters.
 */
export async function scoreHeldout(call: Api, data: HeldoutDataset, s: HeldoutScenario, limits: Limits, stage: PromptStage): Promise<HeldoutResult> {
  const byKey = new Map(data.learnings.map((l) => [l.key, l]));
  const relevant = s.relevant.map((k) => byKey.get(k)!);
  const sessionId = randomUUID();
  const start = await getContext(call, sessionStartUrl(s, sessionId, START_BUDGET));
  limits.check(s.name, `start ${START_BUDGET}`, start, START_BUDGET);
  const withPrompt = await promptStage(call, s, sessionId, relevant, start, limits, stage);
  const wide = await getContext(call, sessionStartUrl(s, randomUUID(), WIDE_BUDGET));
  limits.check(s.name, `start ${WIDE_BUDGET}`, wide, WIDE_BUDGET);
  const base = baselineKeys(data, s.project);
  return {
    name: s.name,
    project: s.project,
    stage: s.stage,
    paraphrase: Boolean(s.paraphrase),
    relevant: relevant.length,
    baselineHits: s.relevant.filter((k) => base.has(k)).length,
    start: carried(relevant, [start.context], start.tokenEstimate, start.learningsShown),
    wide: carried(relevant, [wide.context], wide.tokenEstimate, wide.learningsShown),
    withPrompt,
  };
}
