import { ftsQuery } from "../learnings/fts-query";

/**
 * Words every branch name and path has, which say nothing about what a session is about. Kept short
 * on purpose: words like "fix", "test" or "refactor" do carry meaning (a learning about tests), and
 * BM25 already weighs common words down.
 */
const NOISE = new Set("main master develop dev trunk head feat feature wip chore merge branch src lib app home users repo repos tmp task".split(" "));

export type Hints = { q?: string; task?: string; branch?: string; cwd?: string; project?: string };

/** The hints of a session start as one FTS5 expression, or null when nothing usable is left. */
export function hintQuery(hints: Hints): string | null {
  const parts = [hints.q, hints.task, hints.branch, hints.cwd?.split(/[\\/]/).filter(Boolean).slice(-2).join(" "), hints.project];
  const words = parts
    .filter((p): p is string => Boolean(p))
    .join(" ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !NOISE.has(w.toLowerCase()) && !/^\d+$/.test(w));
  return ftsQuery(words.join(" "));
}
