import { AGENT_LABELS, TASK_IMPORT_FILE } from "../../rules";
import type { ContextData, ContextLearning, RenderOptions, SectionName } from "../context-types";
import { byline, defuseLine, quoteHeading, quoteLines } from "./fence";
import { learningCountsLine, learningsTotal } from "./learning-counts";
import { normaliseRemote } from "../project/match-project";
import { proposalIndexLine } from "./proposal-index";
import { relativeTime, staleAge } from "./relative-time";
import { countTokens, nonSpaceRuns } from "./tokenizer";
import { BoundedCache } from "../../process/bounded-cache";
import { processWide } from "../../process/process-state";

/**
 * A section's items as the packer reads them: a list of lines (an array does), or lines rendered when
 * first read (renderedOnDemand), since a budget shows only some of the candidates.
 */
export type Items = {
  readonly length: number;
  at(index: number): string | undefined;
  /**
   * Item `index`'s line as the two parts it was made of (their concatenation is `at(index)`): a part that
   * recurs from context to context and a part made for this one. The packer counts the two apart where
   * o200k's count of the line is their sum (tokenizer.ts cutBetween).
   */
  parts?(index: number): LineParts | undefined;
};

/** A line as its head and its tail, with the head's o200k count when it is known already (counted once, when the head was made). */
export type LineParts = readonly [head: string, tail: string, headTokens?: number];

/** `length` lines, each rendered by `line` the first time it is read and remembered. */
export function renderedOnDemand(length: number, line: (index: number) => string): Items {
  const lines: (string | undefined)[] = new Array<string | undefined>(length);
  return { length, at: (i) => (i >= 0 && i < length ? (lines[i] ??= line(i)) : undefined) };
}

/** Learnings as a section's items: each line rendered when first read, as its head and its facts (Items.parts). */
export function learningItems(learnings: readonly ContextLearning[], now: Date): Items {
  return joinedOnDemand(learnings.length, (i) => learningLineParts(learnings[i]!, now));
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
 * A section before packing: a header, then items the packer keeps from the top while they fit, and
 * the line that says how many it left out. Items are single lines, so nothing is ever cut mid-line.
 */
export type SectionDraft = {
  name: SectionName;
  /** Given how many items were kept. */
  header: (shown: number) => string;
  items: Items;
  /**
   * A number of tokens item `index`'s line has at least (never more than `fewestTokens` of the line),
   * known without rendering it: the packer passes over a line this says cannot fit unrendered.
   */
  fewest?: (index: number) => number;
  /** The line that replaces `n` items left out. */
  omitted?: (n: number) => string;
  /** A line that stays with the section whenever any of it is shown. */
  footer?: string;
  /**
   * From this index on, each item stands alone (a ranked learning, not a line of a text): one too long
   * for what the budget has left is passed over and a later one that fits is listed instead. Before it,
   * and in a section without it, items are kept from the top only.
   */
  fillFrom?: number;
  /** Items known to exist but not listed at all (counted in the omitted line). */
  unlisted?: number;
  /**
   * What must be said if the section is dropped whole, even when the full closing "Left out" line
   * does not fit: the packer keeps this line rather than say nothing.
   */
  mustNote?: string;
};

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function setup(data: ContextData): SectionDraft {
  return {
    name: "setup",
    header: () => "## Baton setup",
    items: [
      "No seed (AI identity and personal learnings) is stored for this user yet.",
      `A seed.json can be imported with \`baton import seed.json\`; identity can be set in the dashboard: ${data.dashboardUrl}/identity`,
    ],
  };
}

/** A remote as people name it: `acme/web-app` for `git@github.com:acme/web-app.git`; a path stays a path. */
function remoteName(remote: string): string {
  const parts = normaliseRemote(remote).split("/");
  return parts.length > 2 && /[.:]|^localhost$/.test(parts[0]!) ? parts.slice(1).join("/") : parts.join("/");
}

/**
 * One line when the repository maps to no project: what was tried and where a mapping is made, so
 * the user can tell a personal context from a project's and fix it.
 */
function mapping(data: ContextData): SectionDraft | null {
  const tried = data.unmapped;
  if (!tried) return null;
  const what = [tried.remote ? `origin ${oneLine(remoteName(tried.remote))}` : null, tried.cwd ? `directory ${oneLine(tried.cwd)}` : null].filter(Boolean);
  const line =
    `Project: none of yours matches ${what.join(" or ")}, so this context is personal only. ` +
    `Mapping: a matcher in a project's settings (${data.dashboardUrl}/settings/projects) or {"project": "<slug>"} in .baton.json.`;
  return { name: "mapping", header: () => line, items: [] };
}

function identity(data: ContextData): SectionDraft | null {
  const id = data.identity;
  if (!id) return null;
  const items = [`AI name: ${oneLine(id.aiName)} · principal: ${oneLine(id.principalName)}`];
  if (id.catchphrase) items.push(`Catchphrase: "${oneLine(id.catchphrase)}"`);
  if (id.voiceId) items.push(`Voice: ${oneLine(id.voiceId)}`);
  const p = id.preferences;
  const prefs = [
    p?.responseStyle && `response style ${p.responseStyle}`,
    p?.timezone && `timezone ${p.timezone}`,
    p?.locale && `locale ${p.locale}`,
  ].filter(Boolean);
  if (prefs.length) items.push(`Preferences: ${prefs.join(" · ")}`);
  return { name: "identity", header: () => "## Identity", items };
}

/**
 * Task memory and handoffs are written by people (teammates too), so they are quoted under a heading
 * naming who wrote them and when (lib/context/pack/fence.ts), never given as lines of Baton's own.
 */
function task(data: ContextData): SectionDraft | null {
  const t = data.activeTask;
  if (!t) return null;
  const updated = `updated ${relativeTime(t.updatedAt, data.now)}`;
  // The agent reads the memory file through CLAUDE.local.md already (the CLI imports only a memory the
  // user wrote themself): the same lines twice would only cost tokens.
  if (t.imported) {
    return { name: "task", header: () => `## Active task: ${t.taskId} (memory ${updated}; ${TASK_IMPORT_FILE} imports it from backlog/memory/${t.taskId}.md)`, items: [] };
  }
  return {
    name: "task",
    header: () => quoteHeading(`## Active task: ${t.taskId}, memory`, [byline(t.author, t.bySelf), updated]),
    items: quoteLines(t.markdown),
    omitted: (n) => `… ${n} more lines of this task's memory: \`baton task show ${t.taskId}\``,
  };
}

function handoff(data: ContextData): SectionDraft | null {
  const h = data.handoff;
  if (!h) return null;
  // The agent by its label alone ("by bo, Codex CLI"): the model would cost tokens and tell the next session little.
  const facts = [relativeTime(h.createdAt, data.now), h.branch ? `branch ${h.branch}` : null, byline(h.author), h.agent && AGENT_LABELS[h.agent]];
  const header = h.checkpoint ? quoteHeading("## This session before its compaction", ["checkpoint", ...facts]) : quoteHeading("## Last handoff", facts);
  return {
    name: "handoff",
    header: () => header,
    items: quoteLines(h.markdown),
    omitted: (n) => `… ${n} more lines of this handoff: \`baton handoff show\``,
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
 * A learning as a context lists it: `- [kind] content (relevance, pinned, unconfirmed)`, a teammate's
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
 * A learning's line as its head, `- [kind] content` (defused), and its facts, ` (0.83, by bo)` or "".
 * The head is kept by content (up to LINE_HEAD_MAX_CHARS) with its o200k count: a learning listed
 * again gets the same string and count, so defusing and counting it are done once, not in every
 * context it is listed in.
 */
export function learningLineParts(l: ContextLearning, now: Date): LineParts {
  const writer = writtenBy(l.writer, l.writtenAt, now);
  const facts = [l.relevance !== null ? l.relevance.toFixed(2) : null, l.pinned ? "pinned" : null, l.confirmed ? null : "unconfirmed", ...writer].filter(Boolean);
  const tail = facts.length ? ` (${facts.join(", ")})` : "";
  const head = () => `- [${l.kind}] ${defuseLine(l.content)}`;
  if (l.content.length > LINE_HEAD_MAX_CHARS) return [head(), tail];
  let known = heads.get(l.content);
  if (known?.kind !== l.kind) {
    const made = head();
    heads.set(l.content, (known = { kind: l.kind, head: made, tokens: countTokens(made) }));
  }
  return [known.head, tail, known.tokens];
}

/**
 * A number of tokens a learning's line has at least, from its content alone: the line's runs of
 * non-whitespace (fewestTokens) are "-", "[kind]" and at least the content's own, since folding
 * whitespace keeps runs and defusing only ever swaps or splits characters inside a run (fence.ts).
 */
export function learningLineFewest(l: ContextLearning): number {
  return 2 + nonSpaceRuns(l.content);
}

/**
 * Pinned learnings first, then the ranked ones. The packer keeps items from the top, so pinned ones
 * go last to a tight budget; those left out are named with where to unpin them, never dropped silently.
 * After the pinned ones, a learning too long for what is left gives its place to the next ones that fit
 * whole: a learning's line is never cut (SPEC §3), and the budget it would leave unused shows more.
 */
function learnings(data: ContextData): SectionDraft | null {
  if (!data.learnings.length) return null;
  const ranked = data.learningsRanked;
  const title = ranked ? "Relevant learnings" : "Recent learnings";
  const pinned = data.learnings.filter((l) => l.pinned).length;
  const notFit = (n: number) =>
    `${n} pinned ${n === 1 ? "learning" : "learnings"} did not fit the budget; a larger budget, or unpinning some at ${data.dashboardUrl}/learnings?pinned=true, makes room`;
  return {
    name: "learnings",
    header: (shown) => `## ${title} (${shown}/${learningsTotal(data.learningCounts)}${pinned ? `, ${Math.min(shown, pinned)} pinned` : ""})`,
    items: learningItems(data.learnings, data.now),
    fewest: (i) => learningLineFewest(data.learnings[i]!),
    omitted: (n) => {
      const left = Math.max(0, pinned - (data.learnings.length - n));
      return [left ? `${notFit(left)}.` : "", n > left ? `${n - left} more learnings: \`baton learnings\`` : ""].filter(Boolean).join(" ");
    },
    fillFrom: pinned,
    ...(pinned ? { mustNote: notFit(pinned) } : {}),
  };
}

function proposals(data: ContextData): SectionDraft | null {
  if (!data.proposalCount) return null;
  // The list may hold fewer than proposalCount; the rest are counted as left out from the start.
  const unlisted = Math.max(0, data.proposalCount - data.proposals.length);
  return {
    name: "proposals",
    header: () => `## Pending proposals (${data.proposalCount})`,
    items: data.proposals.map(proposalIndexLine),
    omitted: (n) => `${n} more pending`,
    footer: `Review: ${data.dashboardUrl}/proposals`,
    ...(unlisted ? { unlisted } : {}),
  };
}

/**
 * The lowest-priority section: facts about the store and the last session, the seed's version last.
 * Each fact is one item, so a tight budget keeps the first ones whole and counts the rest.
 */
function state(data: ContextData): SectionDraft {
  const s = data.state;
  const items = [s.lastSessionAt ? `Last session: ${relativeTime(s.lastSessionAt, data.now)}` : "Last session: none recorded", learningCountsLine(data.learningCounts)];
  if (s.activeProjects.length) items.push(`Active projects: ${s.activeProjects.map(oneLine).join(", ")}`);
  if (s.checkpointRef) items.push(`Checkpoint: ${oneLine(s.checkpointRef)}`);
  if (data.project) items.push(`Queued sessions in ${data.project.slug}: ${s.queuedSessions}${s.queuedSessions ? " (`baton pickup`)" : ""}`);
  if (s.seedVersion) items.push(`Seed version: ${oneLine(s.seedVersion)}`);
  return { name: "state", header: () => "## Session state", items, omitted: (n) => `… ${n} more ${n === 1 ? "line" : "lines"} of session state` };
}

/**
 * The sections in priority order. After a compaction the agent has just lost its working memory, so
 * the task memory and the handoff come before identity, and the session's own checkpoint (what it was
 * in the middle of) before everything.
 */
export function renderSections(data: ContextData, options: RenderOptions): SectionDraft[] {
  const id = options.mode === "complement" ? null : data.identity ? identity(data) : data.setupNote ? setup(data) : null;
  const checkpoint = data.handoff?.checkpoint === true;
  const order =
    options.source === "compact"
      ? checkpoint
        ? [handoff(data), task(data), id, mapping(data), learnings(data), proposals(data), state(data)]
        : [task(data), handoff(data), id, mapping(data), learnings(data), proposals(data), state(data)]
      : [id, mapping(data), task(data), handoff(data), learnings(data), proposals(data), state(data)];
  return order.filter((s): s is SectionDraft => s !== null);
}
