import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { storeWordCounts } from "../db/queries/learning-counts";
import { findLearning, supersedeLearnings, updateLearning, type LearningRow } from "../db/queries/learnings";
import { keepLearnings, keepPair, keptPairsAmong, listFlaggedLearnings, listLearningsByIds, listNewestLearnings, listStaleLearnings, pairKey, windowMatches } from "../db/queries/tidy";
import { requireProject } from "../projects/projects";
import { MAX_TAGS } from "../rules";
import { contentWords, similarWordsScore } from "../proposals/near-duplicate";
import { rarest } from "../proposals/similar-learnings";
import { compareFeatures, textFeatures } from "./contradictions";
import { ftsExpression, searchWords } from "./fts-query";
import { auditSubject } from "./learnings";

// The tidy-up queue (issue 27): per project, what a person should look at — learnings never sent to an
// agent in STALE_DAYS, near-duplicates, pairs that look contradictory, flagged ones — and the decisions
// on them, each in the audit trail. Every list is bounded, so the queue costs about the same at 10k
// learnings as at 100k (bench/tidy.ts).

/** Unused this long is stale; kept, a learning (or a pair) stays out of the queue this long. */
export const STALE_DAYS = 90;
export const KEEP_DAYS = 90;
/** Entries of each kind per page: a person clears a page in minutes. */
export const TIDY_PAGE = 20;
/**
 * Pairs are looked for around the newest learnings only (a new learning is what duplicates or
 * contradicts an older one), each against the newest learnings sharing its rarest words: never all pairs.
 */
const PROBES = 40;
/** How many of the newest matches of a probe's words are judged: bounds each search on a large store. */
const PROBE_WINDOW = 200;
/** How many rows a probe's rarest words may match together (see rarest): the words searched are the rare ones. */
const PROBE_MATCHES = 1_000;
/** A near-duplicate: nearly all the shorter text's words are in the other (near-duplicate.ts's overlap). */
const DUPLICATE_OVERLAP = 0.8;

const DAY = 86_400_000;

export type TidyPair = { a: LearningRow; b: LearningRow; reasons: string[] };
export type TidyQueue = {
  project: { slug: string; name: string };
  canWrite: boolean;
  stale: LearningRow[];
  duplicates: TidyPair[];
  contradictions: TidyPair[];
  flagged: LearningRow[];
};

export async function tidyQueue(db: Db, principal: Principal, slug: string, now = new Date()): Promise<TidyQueue> {
  const project = await requireProject(db, principal, slug);
  const read = { projectId: project.id, keptSince: new Date(now.getTime() - KEEP_DAYS * DAY), limit: TIDY_PAGE };
  const [stale, flagged, pairs] = await Promise.all([
    listStaleLearnings(db, { ...read, before: new Date(now.getTime() - STALE_DAYS * DAY) }),
    listFlaggedLearnings(db, read),
    findPairs(db, { ...read, limit: PROBES }),
  ]);
  return {
    project: { slug: project.slug, name: project.name },
    canWrite: project.role !== "viewer",
    stale,
    flagged,
    duplicates: pairs.duplicates.slice(0, TIDY_PAGE),
    contradictions: pairs.contradictions.slice(0, TIDY_PAGE),
  };
}

/** Near-duplicates and contradictions among the newest learnings and what they share words with. */
async function findPairs(db: Db, read: { projectId: string; keptSince: Date; limit: number }) {
  const probes = await listNewestLearnings(db, read);
  const words = probes.map((p) => searchWords(p.content));
  const all = [...new Set(words.flat())];
  const found: { a: string; b: string; duplicate: boolean; reasons: string[] }[] = [];
  if (all.length) {
    const frequencies = await storeWordCounts(db, { terms: all, cap: { least: PROBE_MATCHES, share: 0 } });
    const matches = await Promise.all(
      probes.map((probe, i) => {
        const match = ftsExpression(rarest(words[i]!, frequencies, PROBE_MATCHES));
        return match ? windowMatches(db, { projectId: read.projectId, match, window: PROBE_WINDOW }) : [];
      }),
    );
    const seen = new Set<string>();
    // A text is read once however many pairs it is in (a probe meets up to PROBE_WINDOW others).
    const textOf = memo((l: { id: string; content: string }) => ({ features: textFeatures(l.content), words: contentWords(l.content) }));
    probes.forEach((probe, i) => {
      for (const c of matches[i]!) {
        const key = pairKey(probe.id, c.id).join(" ");
        if (c.id === probe.id || seen.has(key)) continue;
        seen.add(key);
        const [p, o] = [textOf(probe), textOf(c)];
        const verdict = compareFeatures(p.features, o.features);
        if (verdict.contradictory) found.push({ a: probe.id, b: c.id, duplicate: false, reasons: verdict.reasons });
        else if ((similarWordsScore(p.words, o.words) ?? 0) >= DUPLICATE_OVERLAP) found.push({ a: probe.id, b: c.id, duplicate: true, reasons: ["near-duplicate"] });
      }
    });
  }
  const others = [...new Set(found.map((f) => f.b))];
  const [kept, rows] = await Promise.all([
    keptPairsAmong(db, { pairs: found.map((f) => pairKey(f.a, f.b)), since: read.keptSince }),
    listLearningsByIds(db, { projectId: read.projectId, ids: others }),
  ]);
  const byId = new Map([...probes, ...rows].map((l) => [l.id, l]));
  const pairs = found.filter((f) => !kept.has(pairKey(f.a, f.b).join(" ")) && byId.has(f.b)).map((f) => ({ ...f, a: byId.get(f.a)!, b: byId.get(f.b)! }));
  return { duplicates: pairs.filter((p) => p.duplicate).map(({ a, b, reasons }) => ({ a, b, reasons })), contradictions: pairs.filter((p) => !p.duplicate).map(({ a, b, reasons }) => ({ a, b, reasons })) };
}

function memo<V>(compute: (l: { id: string; content: string }) => V): (l: { id: string; content: string }) => V {
  const cache = new Map<string, V>();
  return (l) => {
    let v = cache.get(l.id);
    if (v === undefined) cache.set(l.id, (v = compute(l)));
    return v;
  };
}

const idField = z.string().min(1).max(100);
export const keepSchema = z.strictObject({ ids: z.array(idField).min(1).max(2) });
export const replaceSchema = z.strictObject({
  /** The learning that stays. */
  keep: idField,
  /** The learning it replaces: superseded by `keep`, no longer sent to agents. */
  drop: idField,
  /** merge: the kept one also takes the other's tags; supersede: nothing else changes. */
  how: z.enum(["merge", "supersede"]),
});

/** Learnings of one project this request may change (a viewer's: 403; another project's: 404). */
async function writableLearnings(db: Db, principal: Principal, slug: string, ids: string[]) {
  const project = await requireProject(db, principal, slug, "write");
  const rows = await Promise.all(ids.map((id) => findLearning(db, { id, userId: principal.userId, projectIds: [project.id] })));
  if (rows.some((r) => !r || r.projectId !== project.id)) throw new ApiError("not_found", `No such learning in "${slug}".`);
  return { project, rows: rows as LearningRow[] };
}

/**
 * "Keep": looked at and still wanted, out of the queue for KEEP_DAYS. One learning (stale or flagged):
 * out of those lists. Two (a pair listed as duplicates or a contradiction): that pair only; each still
 * pairs with others, and is listed when stale or flagged.
 */
export async function keepInQueue(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const { ids } = keepSchema.parse(input);
  if (ids.length === 2 && ids[0] === ids[1]) throw new ApiError("bad_request", "A pair is two different learnings.");
  const { project, rows } = await writableLearnings(db, principal, slug, ids);
  const at = new Date();
  await db.transaction(async (tx) => {
    if (rows.length === 2) {
      const [a, b] = rows as [LearningRow, LearningRow];
      await keepPair(tx, { pair: [a.id, b.id], at });
      await recordAudit(tx, principal.userId, { action: "keep", ...auditSubject(a), detail: `kept beside “${b.content.slice(0, 60)}” in the tidy-up queue for ${KEEP_DAYS} days` });
      return;
    }
    await keepLearnings(tx, { projectId: project.id, ids, at });
    await recordAudit(tx, principal.userId, { action: "keep", ...auditSubject(rows[0]!), detail: `kept in the tidy-up queue for ${KEEP_DAYS} days` });
  });
}

/** Merge or supersede: `drop` is superseded by `keep` (merge also gives `keep` the other's tags). */
export async function replaceInQueue(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const { keep, drop, how } = replaceSchema.parse(input);
  if (keep === drop) throw new ApiError("bad_request", "A learning cannot replace itself.");
  const { project, rows } = await writableLearnings(db, principal, slug, [keep, drop]);
  const [kept, dropped] = rows as [LearningRow, LearningRow];
  if (kept.supersededAt) throw new ApiError("conflict", "The learning to keep is itself superseded.");
  await db.transaction(async (tx) => {
    const marked = await supersedeLearnings(tx, { userId: principal.userId, projectId: project.id, ids: [drop], by: keep, at: new Date() });
    if (!marked.length) throw new ApiError("conflict", "That learning is already superseded, or the one to keep is: reload the queue.");
    // The kept one's tags first, then the other's, as many as a learning may have (MAX_TAGS).
    const tags = [...new Set([...kept.tags, ...dropped.tags])].slice(0, MAX_TAGS);
    if (how === "merge" && tags.length > kept.tags.length) {
      await updateLearning(tx, { id: keep, userId: principal.userId, projectIds: [project.id], patch: { tags } });
    }
    const detail = how === "merge" ? `merged into “${kept.content.slice(0, 60)}”` : `superseded by “${kept.content.slice(0, 60)}”`;
    await recordAudit(tx, principal.userId, { action: "supersede", ...auditSubject(dropped), detail });
  });
}
