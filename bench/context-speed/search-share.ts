import { createClient } from "@libsql/client";
import { hintsOf, selectTerms } from "../../lib/context/hints/hint-query";

/**
 * Whether the contexts a run asked for were ranked by a search, or fell back to the recent list (every
 * hint word too common: lib/context/hints/hint-query.ts's selectTerms leaves them all out). Worked out from
 * the store after the run, with the server's own rule and the words' real frequencies in the full-text
 * index, so nothing is added to the request path. A speed figure counts only when at least
 * MIN_SEARCH_SHARE of its contexts searched.
 */
export type SearchShare = {
  /** Contexts examined (a sample of those sent). */
  contexts: number;
  /** Share of them whose hints chose at least one word to search for. */
  share: number;
  /** Mean number of learnings each searched word occurs in (the rows BM25 scores for it). */
  rowsPerWord: number;
};

export const MIN_SEARCH_SHARE = 0.8;

/** A path generator that also keeps what it gave, to examine afterwards. */
export function recording(next: () => string): { next: () => string; sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    next: () => {
      const path = next();
      sent.push(path);
      return path;
    },
  };
}

/** The search share of up to `sample` of `paths` (evenly spaced), against the store at `databaseUrl`. */
export async function searchShare(databaseUrl: string, paths: string[], sample = 400): Promise<SearchShare> {
  const db = createClient({ url: databaseUrl });
  try {
    const total = Number((await db.execute("SELECT coalesce(sum(n), 0) AS n FROM learning_counts")).rows[0]!.n);
    const frequency = new Map<string, number>();
    const step = Math.max(1, paths.length / sample);
    let searched = 0;
    let contexts = 0;
    let words = 0;
    let rows = 0;
    for (let i = 0; i < paths.length; i += step, contexts++) {
      const q = Object.fromEntries(new URL(paths[Math.floor(i)]!, "http://bench").searchParams);
      const { terms } = hintsOf({ q: q.q, task: q.task, branch: q.branch, cwd: q.cwd }, null);
      for (const t of terms) {
        if (frequency.has(t)) continue;
        const r = await db.execute({ sql: `SELECT count(*) AS n FROM learnings_fts WHERE learnings_fts MATCH ?`, args: [`"${t}"`] });
        frequency.set(t, Number(r.rows[0]!.n));
      }
      const chosen = selectTerms(terms, frequency, total);
      if (!chosen.length) continue;
      searched++;
      words += chosen.length;
      rows += chosen.reduce((s, t) => s + frequency.get(t)!, 0);
    }
    return { contexts, share: contexts ? searched / contexts : 0, rowsPerWord: words ? rows / words : 0 };
  } finally {
    db.close();
  }
}
