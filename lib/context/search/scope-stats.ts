/**
 * What the learnings of one scope add up to: how many (superseded too: `rows`, as FTS5 counts a store's
 * rows), their tokens in both columns, and how many are not superseded (`live`, learning_counts' count).
 * BM25's statistics for a reader are those of their personal scope and their projects' together.
 */
export type ScopeStats = { rows: number; tokens: number; live: number };

/** A learning as its scope's statistics count it. */
type Counted = { length: number; superseded: boolean };

/**
 * The statistics of every scope the index holds learnings of, kept as learnings come and go: a user's
 * personal learnings by the user's key, a project's by the project's (LearningIndex's keys).
 */
export class ScopeCounts {
  private readonly personal = new Map<number, ScopeStats>();
  private readonly projects = new Map<number, ScopeStats>();

  /** A learning added to (`sign` 1) or taken from (-1) a scope: its project's (`project` > 0), else its owner's personal one. */
  count(project: number, owner: number, learning: Counted, sign: 1 | -1): void {
    const [stats, key] = project === 0 ? [this.personal, owner] : [this.projects, project];
    const s = stats.get(key) ?? stats.set(key, { rows: 0, tokens: 0, live: 0 }).get(key)!;
    s.rows += sign;
    s.tokens += sign * learning.length;
    if (!learning.superseded) s.live += sign;
  }

  /** What a user's personal learnings (`owner`; undefined: none held) and some projects' add up to. */
  of(owner: number | undefined, projects: Iterable<number>): ScopeStats {
    const sum = { rows: 0, tokens: 0, live: 0 };
    const add = (s: ScopeStats | undefined) => {
      if (!s) return;
      sum.rows += s.rows;
      sum.tokens += s.tokens;
      sum.live += s.live;
    };
    if (owner !== undefined) add(this.personal.get(owner));
    for (const project of projects) add(this.projects.get(project));
    return sum;
  }
}
