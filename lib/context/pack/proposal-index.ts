import type { LearningKind } from "../context-types";
import { defuse } from "./fence";

export const PROPOSAL_CONTENT_CHARS = 40;

/** Content cut to 40 characters (on one line) with an ellipsis when it was longer. */
export function cutContent(content: string, max = PROPOSAL_CONTENT_CHARS): string {
  const oneLine = content.replace(/\s+/g, " ").trim();
  const chars = Array.from(oneLine);
  return chars.length <= max ? oneLine : `${chars.slice(0, max).join("").trimEnd()}…`;
}

/**
 * One line of the compact proposals index: `a1b2c pattern "Always run the tests before commi…" 0.72`.
 * Agents propose through MCP too, so the content is defused (lib/context/pack/fence.ts) before it is cut.
 */
export function proposalIndexLine(p: { id: string; kind: LearningKind; content: string; confidence: number }): string {
  return `- ${p.id.replace(/-/g, "").slice(0, 5)} ${p.kind} "${cutContent(defuse(p.content))}" ${p.confidence.toFixed(2)}`;
}
