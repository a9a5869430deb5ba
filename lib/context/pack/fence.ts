/**
 * Team-written text (handoffs, learnings, task memory, session documents) reaches an agent as quoted
 * material, never as instructions: under a line that says who wrote it and when, each of its lines
 * quoted with "> ", and with the delimiters it could forge defused. One place for the rule, importing
 * only what imports nothing, so the server's context, the prompt stage, MCP and the CLI bundle (`baton
 * pickup`) all share it.
 */
import { BIDI_CONTROL_RANGES, CONTROL_RANGES } from "../../text/control-characters";

/**
 * A delimiter a text could forge to step out of its quote: the wrappers hosts put around injected
 * context, the headings Baton itself writes, the markers of `baton pickup`. `defuse` keeps the text
 * readable while breaking the exact string. Extend the list when a host or Baton adds a new one;
 * every pattern must be global (`g`), and `holds` a string every match of it holds: a text without that
 * string is not scanned (most are not: a learning's line is defused per context, test/unit/pack-scans.test.ts
 * checks the strings against the patterns).
 */
export const FORGEABLE_DELIMITERS: { name: string; holds: string; pattern: RegExp; defuse: (match: string) => string }[] = [
  {
    // `</system-reminder>` and its kin: Claude Code's reminders, Gemini CLI's `<hook_context>`,
    // `<system_reminder>`, tool and function wrappers. Angle brackets become look-alikes.
    name: "host wrapper tags",
    holds: "<",
    pattern: /<\s*\/?\s*[\w:.-]*(?:system|reminder|hook|context|instruction|prompt|tool|function|assistant|human|user|invoke|parameter)[\w:.-]*(?:\s[^<>]*)?\/?\s*>/gi,
    defuse: (m) => m.replace(/</g, "‹").replace(/>/g, "›"),
  },
  {
    // The section headings Baton writes (lib/context/pack/render-sections.ts, the prompt stage's), wherever
    // they stand once the text is quoted or folded onto one line. Other headings cost nothing to keep:
    // they are quoted like every line. A new section's title belongs here too.
    name: "Baton's section headings",
    holds: "#",
    pattern:
      /#{1,6}(?=[ \t]+(?:Identity|Baton setup|Active task|Last handoff|This session before|Relevant learnings|Recent learnings|Learnings relevant|Pending proposals|Session state)\b)/gi,
    defuse: (m) => m.replace(/#/g, "\\#"),
  },
  {
    // `=== Injected Files ===`, `=== Session Content ===` (pickup, spx) and setext underlines.
    name: "=== markers",
    holds: "===",
    pattern: /={3,}/g,
    defuse: () => "= =",
  },
  {
    // Pickup's `--- path ---` file headers.
    name: "--- path --- headers",
    holds: "---",
    pattern: /-{3,}(?=[ \t]+\S[^\n]*?[ \t]+-{3,})|(?<=\S[ \t]+)-{3,}/g,
    defuse: () => "- -",
  },
  {
    // Pickup's own notes: `[Warning: File not found: …]`, `[Truncated at …]`.
    name: "pickup notes",
    holds: "[",
    pattern: /\[(?=(?:Warning|Truncated)\b)/g,
    defuse: () => "(",
  },
];

/**
 * Characters a reader does not see and a model reads: Unicode's tag characters (U+E0000–E007F, "ASCII
 * smuggling": a whole instruction that a reviewer's screen shows as nothing), the supplementary
 * variation selectors (U+E0100–E01EF, one a byte: data hidden after an emoji), the bidirectional controls
 * that make a line show in another order than it is read (U+202A–202E, U+2066–2069), and runs of two or
 * more variation selectors (U+FE00–FE0F) or zero-width characters (U+200B–200D, U+2060, U+FEFF): text
 * uses one at a time (an emoji's presentation, a joiner between emoji), never a run, which is how
 * bits are hidden in them. Also the control characters a terminal obeys (lib/text/control-characters.ts):
 * one that shows an agent's context or tool output would; a pasted log's colours leave only their
 * visible "[31m". Team-written text loses them on its way to an agent.
 */
const HIDDEN = new RegExp(String.raw`[${CONTROL_RANGES}${BIDI_CONTROL_RANGES}\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]|[\uFE00-\uFE0F]{2,}|[\u200B-\u200D\u2060\uFEFF]{2,}`, "gu");

/** The text without the characters a reader does not see (HIDDEN). */
export const withoutHidden = (text: string): string => text.replace(HIDDEN, "");

/** The text with hidden characters dropped and every forgeable delimiter defused. Pure and deterministic: same text, same result. */
export function defuse(text: string): string {
  let out = withoutHidden(text);
  for (const d of FORGEABLE_DELIMITERS) if (out.includes(d.holds)) out = out.replace(d.pattern, d.defuse);
  return out;
}

/**
 * Every string in a JSON-like value defused (the shape kept): what an MCP tool answers as structured
 * content, which some hosts hand their model instead of the text (Claude Code gives it the JSON alone),
 * so a teammate's text in it must be as harmless as in the quoted text beside it.
 */
export function defuseDeep<T>(value: T): T {
  if (typeof value === "string") return defuse(value) as T;
  if (Array.isArray(value)) return value.map(defuseDeep) as T;
  // Plain objects only: a Date or a Map keeps what it is.
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, defuseDeep(v)])) as T;
  return value;
}

/** One line of team-written text (a name, a learning): whitespace folded, delimiters defused. */
export function defuseLine(text: string): string {
  return defuse(text.replace(/\s+/g, " ").trim());
}

/**
 * Markdown as quoted lines: each line defused and prefixed "> " (">" alone for a blank one), so no
 * line of it can stand outside the quote. Leading and trailing blank lines are left out.
 */
export function quoteLines(markdown: string): string[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length && !lines.at(-1)!.trim()) lines.pop();
  while (lines.length && !lines[0]!.trim()) lines.shift();
  return lines.map((line) => (line.trim() ? `> ${defuse(line)}` : ">"));
}

/** Who wrote a team text, as a heading names them: "by you" for the reader themself. */
export function byline(author: string | null | undefined, self = false): string {
  return `by ${self ? "you" : author ? author : "a former member"}`;
}

/**
 * The line above a quote: what it is and the facts about who wrote it and when, e.g.
 * `Handoff (2 h ago, branch main, by bo), quoted:`. Facts are defused, since names come from people.
 */
export function quoteHeading(what: string, facts: (string | null | undefined | false)[]): string {
  const known = facts.filter((f): f is string => typeof f === "string" && f.length > 0).map(defuseLine);
  return `${what}${known.length ? ` (${known.join(", ")})` : ""}, quoted:`;
}

/** A heading and the quoted markdown under it, as one text. */
export function fenced(what: string, facts: (string | null | undefined | false)[], markdown: string): string {
  const lines = quoteLines(markdown);
  return [quoteHeading(what, facts), ...(lines.length ? lines : ["> (empty)"])].join("\n");
}
