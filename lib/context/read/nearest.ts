import type { Db } from "../../db/client";
import { nearestLearnings } from "../../db/queries/embeddings";
import type { Owner } from "../../db/queries/scope";

/**
 * Learnings nearest to a text's meaning; nothing without an embedder or a vector table (`vectorWidth`,
 * read with the request's other reads: metaRead). It waits for the embedder's answer, so it is read
 * after the batches, not in them.
 */
export async function nearestTo(
  db: Db,
  embedQuery: ((text: string) => Promise<number[] | null>) | undefined,
  text: string,
  scope: Owner,
  vectorWidth: number | null,
): Promise<Awaited<ReturnType<typeof nearestLearnings>>> {
  if (!text || !embedQuery || !vectorWidth) return [];
  const vector = await embedQuery(text);
  if (!vector) return [];
  try {
    return await nearestLearnings(db, { vector, ...scope, k: 50 });
  } catch (error) {
    // A vector of the wrong width (the model changed, the worker has not caught up): full text alone.
    console.warn(`baton: vector search skipped (${error instanceof Error ? error.message : error})`);
    return [];
  }
}

/** What the nearest learnings are, as ranking takes them. */
export type Nearest = Awaited<ReturnType<typeof nearestTo>>;
