import { AGENT_LABELS, TASK_IMPORT_FILE } from "../../rules";
import type { ContextData, RenderOptions, SectionName } from "../context-types";
import { byline, quoteHeading, quoteLines } from "./fence";
import { learningCountsLine, learningsTotal } from "./learning-counts";
import { normaliseRemote } from "../project/match-project";
import { proposalIndexLine } from "./proposal-index";
import { relativeTime } from "./relative-time";
import { learningItems, learningLineFewest, type LineParts } from "./learning-line";

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

/** `length` lines, each rendered by `line` the first time it is read and remembered. */
export function renderedOnDemand(length: number, line: (index: number) => string): Items {
  const lines: (string | undefined)[] = new Array<string | undefined>(length);
  return { length, at: (i) => (i >= 0 && i < length ? (lines[i] ??= line(i)) : undefined) };
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
