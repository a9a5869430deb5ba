import { ftsQuery } from "../learnings/fts-query";

/** Words every branch, path and commit subject has, which say nothing about what a session is about. */
const NOISE = new Set(
  "main master develop dev trunk head feat feature features fix fixes bugfix hotfix chore chores refactor wip task tasks src lib app home users user repo repos code work tmp merge branch pull request commit update updates add adds remove test tests".split(
    " ",
  ),
);

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
