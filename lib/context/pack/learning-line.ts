import type { ContextLearning, LearningKind } from "../context-types";
import { BoundedCache } from "../../process/bounded-cache";
import { processWide } from "../../process/process-state";
import { byline, defuseLine } from "./fence";
import { staleAge } from "./relative-time";
import type { Items } from "./render-sections";
import { countTokens, countTokensByLine, nonSpaceRuns } from "./tokenizer";

// How a context and the prompt stage list a learning: its line, and the line as the packer reads it (its
// head, kept and counted once, and its facts). MCP's list of learnings names writers as these do (writtenBy).

/**
 * A line as its head and its tail, with their o200k counts when known already: the head's counted once,
 * when it was made; the tail's from the counts of lines an instance remembers.
 */
export type LineParts = readonly [head: string, tail: string, headTokens?: number, tailTokens?: number];

/** Learnings as a section's items: each line rendered when first read, as its head and its facts, counted (Items.parts). */
export function learningItems(learnings: readonly ContextLearning[], now: Date): Items {
  return joinedOnDemand(learnings.length, (i) => {
    const [head, tail, headTokens] = learningLineParts(learnings[i]!, now);
    return [head, tail, headTokens, countTokensByLine(tail)];
  });
}

/** `length` lines made of two parts each, rendered when first read and remembered (Items.parts). */
function joinedOnDemand(length: number, parts: (index: number) => LineParts): Items {
  const made: (LineParts | undefined)[] = new Array<LineParts | undefined>(length);
  const lines: (string | undefined)[] = new Array<string | undefined>(length);
  const partsAt = (i: number) => (i >= 0 && i < length ? (made[i] ??= parts(i)) : undefined);
  return {
    length,
    parts: partsAt,
    at: (i) => {
      const p = partsAt(i);
      return p && (lines[i] ??= p[0] + p[1]);
    },
  };
}

/**
 * A learning's facts about who wrote it and when, compact: a teammate's name (`by bo`; undefined for the
 * reader's own) and its age once it is stale (`5mo`). The context's, the prompt stage's, MCP's.
 */
export function writtenBy(writer: { name: string | null } | undefined, at: Date | undefined, now: Date): string[] {
  // Names come from people: defused, and a blank one is no name.
  const by = writer ? byline(writer.name ? defuseLine(writer.name) || null : null) : null;
  const age = at ? staleAge(at, now) : null;
  return [by, age].filter((fact): fact is string => fact !== null);
}

/**
 * A learning as a context lists it: `- content (relevance, pinned, unconfirmed)` (`- [self] …` for the
 * agent's self-knowledge), a teammate's
 * with who wrote it (`…, by bo`), and a stale one with its age (`…, 5mo`). Also the prompt stage's. Its
 * content is one line after the list marker, with forgeable delimiters defused, so a learning cannot
 * start a line (or a section) of its own; the writer's name comes from a person too, so it is defused
 * the same way.
 */
export function learningLine(l: ContextLearning, now: Date): string {
  const [head, facts] = learningLineParts(l, now);
  return head + facts;
}

/** Learnings' heads an instance keeps: a few hundred contexts' worth, as the token counts of lines. */
export const LINE_HEAD_CAPACITY = 20_000;
/** A head is kept only for content up to this long (most are one or two sentences): the cache stays small whatever is stored. */
export const LINE_HEAD_MAX_CHARS = 1_000;
type KeptHead = { kind: string; head: string; tokens: number };
const heads = processWide("learning line heads", () => new BoundedCache<string, KeptHead>(LINE_HEAD_CAPACITY));

/** The kept heads, for the test that they stay bounded. */
export function lineHeadCache(): BoundedCache<string, KeptHead> {
  return heads;
}

/**
 * A learning's line as its head, `- content` or `- [self] content` (defused), and its facts, ` (0.83, by bo)` or "".
 * The head is kept by content (up to LINE_HEAD_MAX_CHARS) with its o200k count: a learning listed
 * again gets the same string and count, so defusing and counting it are done once, not in every
 * context it is listed in.
 */
export function learningLineParts(l: ContextLearning, now: Date): LineParts {
  const writer = writtenBy(l.writer, l.writtenAt, now);
  const facts = [l.relevance !== null ? l.relevance.toFixed(2) : null, l.pinned ? "pinned" : null, l.confirmed ? null : "unconfirmed", ...writer].filter(Boolean);
  const tail = facts.length ? ` (${facts.join(", ")})` : "";
  if (l.content.length > LINE_HEAD_MAX_CHARS) return [lineHead(l), tail];
  const known = keptHead(l);
  return [known.head, tail, known.tokens];
}

/**
 * What a line says of a learning's kind: only that self-knowledge is the agent's about itself (its "I"
 * is the agent's, not the reader's). Patterns and insights read the same to an agent, and the tag cost 4
 * tokens a line: about one learning's room in a start of 700 tokens (issue 26, BENCHMARKS.md).
 */
const KIND_MARK: Readonly<Record<LearningKind, string>> = { pattern: "", insight: "", self_knowledge: "[self] " };
/** The mark a line starts with: a content that starts with a bracket of its own (`[self] I …` in an insight) is headed by its true kind, so no content can pass for a mark. */
const markOf = (l: HeadOf) => KIND_MARK[l.kind] || (/^\s*\[/.test(l.content) ? `[${l.kind}] ` : "");
/** A learning's line without its facts, as a context lists it: `- content`, `- [self] content`. */
export const lineHead = (l: HeadOf) => `- ${markOf(l)}${defuseLine(l.content)}`;
type HeadOf = Pick<ContextLearning, "kind" | "content">;

/** A learning's head as kept (content up to LINE_HEAD_MAX_CHARS): made and counted now when it is not. */
function keptHead(l: HeadOf): KeptHead {
  let known = heads.get(l.content);
  if (known?.kind !== l.kind) {
    const head = lineHead(l);
    heads.set(l.content, (known = { kind: l.kind, head, tokens: countTokens(head) }));
  }
  return known;
}

/** How long warmLineHeads works before it lets requests in. */
const WARM_SLICE_MS = 10;

/**
 * Makes and counts the heads of these learnings (at most LINE_HEAD_CAPACITY, in their order: the ones to
 * keep longest last, as the cache evicts the oldest kept first) a slice
 * of WARM_SLICE_MS at a time, yielding to requests between slices: counting a head is most of what a
 * learning listed for the first time costs (~60 µs), so a server does it for the learnings it holds
 * when it starts (lib/startup.ts), not in the first contexts that list them. Resolves with how many it made.
 */
export async function warmLineHeads(learnings: readonly HeadOf[]): Promise<number> {
  let made = 0;
  const end = Math.min(learnings.length, LINE_HEAD_CAPACITY);
  for (let i = 0; i < end; ) {
    for (const until = performance.now() + WARM_SLICE_MS; i < end && performance.now() < until; i++) {
      const l = learnings[i]!;
      if (l.content.length > LINE_HEAD_MAX_CHARS || heads.get(l.content)?.kind === l.kind) continue;
      keptHead(l);
      made++;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return made;
}

/**
 * A number of tokens a learning's line has at least, from its content alone: the line's runs of
 * non-whitespace (fewestTokens) are "-", the kind's mark if any and at least the content's own, since
 * folding whitespace keeps runs and defusing only ever swaps or splits characters inside a run (fence.ts).
 */
export function learningLineFewest(l: ContextLearning): number {
  return (markOf(l) ? 2 : 1) + nonSpaceRuns(l.content);
}
