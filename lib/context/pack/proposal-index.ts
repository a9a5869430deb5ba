import type { LearningKind } from "../context-types";
import { defuse } from "./fence";

export const PROPOSAL_CONTENT_CHARS = 40;

/** Characters as a reader sees them: a flag, an emoji with its modifiers, a Devanagari conjunct, a keycap are one each. */
const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Content cut to 40 characters (on one line, never inside one a reader sees as one) with an ellipsis when it was longer. */
export function cutContent(content: string, max = PROPOSAL_CONTENT_CHARS): string {
  const oneLine = content.replace(/\s+/g, " ").trim();
  if (oneLine.length <= max) return oneLine;
  let seen = 0;
  for (const { index } of GRAPHEMES.segment(oneLine)) if (seen++ === max) return `${oneLine.slice(0, index).trimEnd()}…`;
  return oneLine;
}

/**
 * One line of the compact proposals index: `a1b2c pattern "Always run the tests before commi…" 0.72`.
 * Agents propose through MCP too, so the content is defused (lib/context/pack/fence.ts) before it is cut.
 */
export function proposalIndexLine(p: { id: string; kind: LearningKind; content: string; confidence: number }): string {
  return `- ${p.id.replace(/-/g, "").slice(0, 5)} ${p.kind} "${cutContent(defuse(p.content))}" ${p.confidence.toFixed(2)}`;
}
