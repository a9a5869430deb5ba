import { searchWords } from "../../learnings/fts-query";

/**
 * Words every branch name and path has, which say nothing about what a session is about. Kept short
 * on purpose: words like "fix", "test" or "refactor" do carry meaning (a learning about tests), and
 * BM25 already weighs common words down.
 */
const NOISE = new Set("main master develop dev trunk head feat feature wip chore merge branch src lib app home users repo repos tmp task".split(" "));

export type Hints = { q?: string; task?: string; branch?: string; cwd?: string; project?: string };

/** The words of a session start's hints worth searching for, in order, without repeats. */
export function hintTerms(hints: Hints): string[] {
  const parts = [hints.q, hints.task, hints.branch, hints.cwd?.split(/[\\/]/).filter(Boolean).slice(-2).join(" "), hints.project];
  const words = parts
    .filter((p): p is string => Boolean(p))
    .join(" ")
    // A combining mark stays in its word (a macOS "é", Turkish "İ" lower-cased); searchWords composes them.
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((w) => w && !NOISE.has(w.toLowerCase()) && !/^\d+$/.test(w));
  return searchWords(words.join(" "));
}

/**
 * Which hint words to search for, given how many learnings each occurs in. A word in a large share of
 * the store says little (BM25 weighs it near zero) yet costs the most (BM25 is computed for every
 * matching row): words above MAX_SHARE of the store are left out, and of the rest the rarest are kept
 * while their matches add up to at most MAX_MATCHES, which bounds the work on a large store.
 *
 * MAX_MATCHES is the context's cost: BM25 scores every row a searched word matches, and that is most
 * of a context's time (BENCHMARKS.md, "Where a context's time goes"). At 20,000 a 10k store with
 * Zipf-spread words scored ~1,000 rows for the hints and ~1,500 again for the tags' feedback; 500
 * keeps the rarest words (those BM25 weighs most) and a bounded cost at any store size.
 */
export const MAX_SHARE = 0.05;
export const MIN_DF_CUTOFF = 50;
export const MAX_MATCHES = 500;

/** selectTerms' rule; lib/db/queries/context-candidates.ts applies the same in SQL. */
export const TERM_SELECTION = { maxShare: MAX_SHARE, minCutoff: MIN_DF_CUTOFF, maxMatches: MAX_MATCHES } as const;

export function selectTerms(
  terms: string[],
  documentFrequency: Map<string, number>,
  total: number,
  selection: { maxShare: number; minCutoff: number; maxMatches: number } = TERM_SELECTION,
): string[] {
  const cutoff = Math.max(selection.minCutoff, total * selection.maxShare);
  const usable = terms.filter((t) => (documentFrequency.get(t) ?? 0) > 0 && documentFrequency.get(t)! <= cutoff);
  usable.sort((a, b) => documentFrequency.get(a)! - documentFrequency.get(b)!);
  const kept: string[] = [];
  let matches = 0;
  for (const t of usable) {
    if (matches + documentFrequency.get(t)! > selection.maxMatches && kept.length) break;
    kept.push(t);
    matches += documentFrequency.get(t)!;
  }
  return terms.filter((t) => kept.includes(t));
}

/** The words to search a session start's learnings for, and its hints as one text (for an embedder). */
export type SearchHints = { terms: string[]; text: string };

/** A task memory's first line (its title), which says what the session is about as well as any hint. */
export function titleOf(memory: { markdown: string } | undefined): string | null {
  return memory?.markdown.split("\n").find((l) => l.trim())?.replace(/^#+\s*/, "") ?? null;
}

export function hintsOf(q: { q?: string; task?: string; branch?: string; cwd?: string }, taskTitle: string | null): SearchHints {
  return {
    terms: hintTerms({ q: q.q, task: [q.task, taskTitle].filter(Boolean).join(" "), branch: q.branch, cwd: q.cwd }),
    text: [q.q, q.task, taskTitle, q.branch].filter(Boolean).join(" · "),
  };
}

/**
 * Pseudo-relevance feedback: the tags of the best FEEDBACK_MATCHES matches name what the hints are
 * about in the store's own words (a session on "stale prices after an admin edit" matches a learning
 * tagged "cache"; "cache" then finds the learnings that never say "price"). Of their words, those not
 * already searched for, in the matches' order; at most FEEDBACK_TERMS are kept, after the common ones
 * are left out (selectTerms).
 */
export const FEEDBACK_MATCHES = 5;
export const FEEDBACK_TERMS = 8;

export function feedbackTerms(bestFirst: { tags: string }[], searched: string[]): string[] {
  const have = new Set(searched);
  return searchWords(
    bestFirst
      .slice(0, FEEDBACK_MATCHES)
      .map((m) => m.tags)
      .join(" "),
    64,
  ).filter((w) => !have.has(w));
}
