import type { SectionName, SectionReport } from "../context-types";
import type { LineParts } from "./learning-line";
import type { SectionDraft } from "./render-sections";
import { cutBetween, fewestTokens, startsPiece, tooLongToCount } from "./tokenizer";

/** `count` is o200k's exact count (countTokens, or countTokensByLine): the packer sums it over the places o200k always cuts a text. */
export type PackLimits = { budget: number; maxChars: number; count: (text: string) => number };
/** `kept`: for each section shown, the indices of the items it lists, in order. */
export type PackResult = { text: string; tokenEstimate: number; sections: SectionReport[]; kept: Partial<Record<SectionName, number[]>> };

const SEPARATOR = "\n\n";

/** A section placed, with the indices of the items it keeps. */
type Placed = { draft: SectionDraft; kept: number[] };

/** A line of the text: as it reads, or as an item's two parts (Items.parts). */
type Line = string | LineParts;
const textOf = (line: Line) => (typeof line === "string" ? line : line[0] + line[1]);

/** A section's lines with `kept` items listed: its header, the items, the "N more" line, the footer. */
function sectionLines(draft: SectionDraft, kept: number[]): Line[] {
  const left = draft.items.length - kept.length + (draft.unlisted ?? 0);
  const lines: Line[] = [draft.header(kept.length), ...kept.map((i) => draft.items.parts?.(i) ?? draft.items.at(i)!)];
  if (left > 0 && draft.omitted) lines.push(draft.omitted(left));
  if (draft.footer) lines.push(draft.footer);
  return lines;
}

/** The text's lines: the placed sections with a blank line between (SEPARATOR), then the closing note. */
function textLines(placed: Placed[], note: string): Line[] {
  const lines: Line[] = [];
  for (const p of placed) {
    if (lines.length) lines.push("");
    lines.push(...sectionLines(p.draft, p.kept));
  }
  // An empty body is left out, as [body, note].filter(Boolean) leaves it out.
  // Lines join to "" only when there is one and it is "".
  const body = lines.length === 1 && textOf(lines[0]!) === "" ? [] : lines;
  return note ? [...body, ...(body.length ? [""] : []), note] : body;
}

const DROPPED_NAMES: Record<SectionName, (n: number) => string> = {
  mapping: () => "project mapping note",
  setup: () => "setup note",
  identity: () => "identity",
  task: (n) => `active task memory (${n} lines)`,
  handoff: (n) => `last handoff (${n} lines)`,
  learnings: (n) => `${n} learnings`,
  proposals: (n) => `${n} pending proposals`,
  state: () => "session state",
};

/**
 * The closing line about dropped sections: every one named ("full"); only what must not go unsaid,
 * when the full line does not fit ("must"); or nothing, when not even that fits.
 */
type NoteTier = "full" | "must" | "none";

function droppedNote(dropped: SectionDraft[], tier: NoteTier): string {
  if (tier === "none" || !dropped.length) return "";
  if (tier === "must") return dropped.flatMap((d) => (d.mustNote ? [`${d.mustNote}.`] : [])).join(" ");
  const names = dropped.map((d) => {
    const name = DROPPED_NAMES[d.name](d.items.length + (d.unlisted ?? 0));
    return d.mustNote ? `${name} (${d.mustNote})` : name;
  });
  return `Left out to fit the budget: ${names.join(", ")}.`;
}

/**
 * Fits sections into a token budget and a character limit at once. Sections are taken in priority
 * order; each is kept whole if it fits, else shortened to the items that fit (with a line counting the
 * rest), else dropped (and named in a closing line). Items are whole lines, so nothing is cut
 * mid-line. The token count is of the exact text returned, so `tokenEstimate <= budget` and
 * `text.length <= maxChars` always hold.
 */
export function packSections(drafts: SectionDraft[], limits: PackLimits): PackResult {
  // Each line is counted once however often the packer reconsiders it.
  const memo = new Map<string, number>();
  const count = (text: string) => {
    let n = memo.get(text);
    if (n === undefined) memo.set(text, (n = limits.count(text)));
    return n;
  };
  for (const tier of ["full", "must", "none"] as const) {
    let budget = limits.budget;
    let maxChars = limits.maxChars;
    while (budget > 0 && maxChars > 0) {
      const placed = greedy(drafts, budget, maxChars, count);
      const dropped = drafts.filter((d) => !placed.some((p) => p.draft === d));
      const lines = textLines(placed, droppedNote(dropped, tier));
      const text = lines.map(textOf).join("\n");
      const tokens = countLines(lines, count);
      if (tokens <= limits.budget && text.length <= limits.maxChars) {
        return { text, tokenEstimate: tokens, sections: report(drafts, placed, count), kept: Object.fromEntries(placed.map((p) => [p.draft.name, p.kept])) };
      }
      // Token counts of pieces do not add up exactly across joins (BPE merges at the seams), and the
      // closing note needs room: pack again against limits lowered by the overshoot.
      budget -= Math.max(1, tokens - limits.budget);
      maxChars -= Math.max(1, text.length - limits.maxChars);
    }
  }
  return { text: "", tokenEstimate: 0, sections: report(drafts, [], limits.count), kept: {} };
}

/**
 * Picks, section by section, which items fit: from the top while they fit; in a section whose items
 * stand alone from `fillFrom` on, an item too long for what is left is passed over and the later ones
 * that still fit are taken (in their order), so a budget a long line would leave unused carries the
 * next ones instead. Costs are summed per line (each line's tokens counted once, plus one for its
 * newline), which is close to the count of the joined text; packSections checks the exact count of the
 * result and repacks when the sum was optimistic.
 */
function greedy(drafts: SectionDraft[], budget: number, maxChars: number, count: (t: string) => number): Placed[] {
  const placed: Placed[] = [];
  let tokens = 0;
  let chars = 0;
  for (const draft of drafts) {
    const sepTokens = placed.length ? 1 : 0;
    const sepChars = placed.length ? SEPARATOR.length : 0;
    const fixed = fixedLines(draft, count);
    const kept: number[] = [];
    let itemTokens = 0;
    let itemChars = 0;
    for (let i = 0; i < draft.items.length; i++) {
      const f = fixed(kept.length + 1);
      const roomTokens = budget - (tokens + sepTokens + itemTokens + f.tokens);
      const roomChars = maxChars - (chars + sepChars + itemChars + f.chars);
      // Every line costs at least its newline: with no room for that, no later item fits either.
      if (roomTokens < 1 || roomChars < 1) break;
      const cost = itemCost(draft, i, { tokens: roomTokens, chars: roomChars }, count);
      if (cost.tokens > roomTokens || cost.chars > roomChars) {
        if (draft.fillFrom !== undefined && i >= draft.fillFrom) continue;
        break;
      }
      kept.push(i);
      itemTokens += cost.tokens;
      itemChars += cost.chars;
    }
    const f = fixed(kept.length);
    if (kept.length === 0 && (draft.items.length > 0 || tokens + sepTokens + f.tokens > budget || chars + sepChars + f.chars > maxChars)) continue;
    tokens += sepTokens + itemTokens + f.tokens;
    chars += sepChars + itemChars + f.chars;
    placed.push({ draft, kept });
  }
  return placed;
}

/** A line's cost: its tokens and characters, each plus one for its newline. */
type Cost = { tokens: number; chars: number };
const lineCost = (line: Line, count: (t: string) => number): Cost =>
  typeof line === "string" ? { tokens: count(line) + 1, chars: line.length + 1 } : { tokens: countParts(line, count) + 1, chars: line[0].length + line[1].length + 1 };

/** An item's two parts counted apart where the count of the line is their sum (each part's count known or counted), else the line. */
function countParts([head, tail, headTokens, tailTokens]: LineParts, count: (t: string) => number): number {
  if (!tail) return headTokens ?? count(head);
  return cutBetween(head, tail) ? (headTokens ?? count(head)) + (tailTokens ?? count(tail)) : count(head + tail);
}

/** Whether a newline before this line is a place o200k always cuts the text (tokenizer.ts startsPiece). */
const startsRun = (line: Line) => startsPiece((typeof line === "string" ? line : line[0])[0]);

/**
 * The exact count of `lines` joined by newlines (what `count` gives the joined text), summed over the
 * runs o200k cuts the text into: a run is a line and the lines after it up to the next that starts a
 * piece, each with its newline. A run of an item's two parts and blank lines is counted as the head
 * and the rest, so a learning's head is counted once however often it is listed.
 */
function countLines(lines: Line[], count: (t: string) => number): number {
  let total = 0;
  for (let i = 0; i < lines.length; ) {
    let j = i + 1;
    while (j < lines.length && !startsRun(lines[j]!)) j++;
    const first = lines[i]!;
    let blanksAfter = true;
    for (let k = i + 1; k < j && blanksAfter; k++) blanksAfter = lines[k] === "";
    // The newlines after the tail change nothing at the cut between head and tail.
    if (typeof first !== "string" && blanksAfter && cutBetween(first[0], first[1])) total += (first[2] ?? count(first[0])) + count(first[1] + "\n".repeat(j - i - 1 + (j < lines.length ? 1 : 0)));
    else total += count(lines.slice(i, j).map(textOf).join("\n") + (j < lines.length ? "\n" : ""));
    i = j;
  }
  return total;
}

/**
 * The cost of a section's fixed lines with `kept` items listed: the header, the footer, and the "N more"
 * line when anything is left out. Rendered once per number kept, however many items are tried at it.
 */
function fixedLines(draft: SectionDraft, count: (t: string) => number): (kept: number) => Cost {
  const total = draft.items.length + (draft.unlisted ?? 0);
  const costs: Cost[] = [];
  return (kept) => {
    const known = costs[kept];
    if (known) return known;
    const lines = [draft.header(kept), ...(draft.footer ? [draft.footer] : [])];
    if (kept < total && draft.omitted) lines.push(draft.omitted(total - kept));
    const cost = { tokens: 0, chars: 0 };
    for (const line of lines) {
      const c = lineCost(line, count);
      cost.tokens += c.tokens;
      cost.chars += c.chars;
    }
    return (costs[kept] = cost);
  };
}

/** What a line that cannot fit costs. */
const CANNOT_FIT: Cost = { tokens: Infinity, chars: Infinity };

/**
 * Item `i`'s cost, or an infinite one when it cannot fit in `room` even at the fewest tokens it may
 * have: first by the section's own bound (the line unrendered), then, for a line whose parts' counts are
 * not both known already, by its characters and its runs (fewestTokens) before its exact count. Most
 * candidates are past the budget, and most of those are never rendered or counted. A line BPE cannot
 * count in time (tokenizer.ts tooLongToCount: a "word" of a thousand letters) is never shown: a team
 * member's text must not hold the server up (one 160 KB line of a handoff took 37 s to count).
 */
function itemCost(draft: SectionDraft, i: number, room: Cost, count: (t: string) => number): Cost {
  if (draft.fewest && draft.fewest(i) + 1 > room.tokens) return CANNOT_FIT;
  const parts = draft.items.parts?.(i);
  // Parts counted already (a learning's line) are costed from their counts: a bound would save nothing
  // but when they cannot be counted apart (cutBetween), and the answer is the same either way.
  if (parts && parts[2] !== undefined && parts[3] !== undefined) return lineCost(parts, count);
  const line = draft.items.at(i)!;
  if (line.length + 1 > room.chars || fewestTokens(line) + 1 > room.tokens || tooLongToCount(line)) return CANNOT_FIT;
  return lineCost(parts ?? line, count);
}

function report(drafts: SectionDraft[], placed: Placed[], count: (t: string) => number): SectionReport[] {
  const byName = new Map<SectionName, Placed>(placed.map((p) => [p.draft.name, p]));
  return drafts.map((draft) => {
    const p = byName.get(draft.name);
    const total = draft.items.length + (draft.unlisted ?? 0);
    return p
      ? { name: draft.name, tokens: countLines(sectionLines(draft, p.kept), count), included: true, omitted: total - p.kept.length }
      : { name: draft.name, tokens: 0, included: false, omitted: total };
  });
}
