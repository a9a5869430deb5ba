import type { Db } from "../db/client";
import { bumpContextVersion, embeddingModel, learningsToEmbed, resetVectorTable, saveVector, skipEmbedding, vectorTableWidth } from "../db/queries/embeddings";
import { asBookkeeping } from "../process/write-behind";
import { EmbeddingRefused, type Embedder } from "./embedder";

const BATCH = 32;
const IDLE_MS = 2000;
const RETRY_MS = 30_000;

type Pending = { seq: number; content: string };

/**
 * The batch's vectors; null for a learning the API refused alone, which is then set aside. A refused
 * batch is asked again one text at a time (until `stopped`).
 */
async function vectorsOf(db: Db, embedder: Embedder, batch: Pending[], stopped: () => boolean): Promise<(number[] | null)[]> {
  try {
    return await embedder.embed(batch.map((l) => l.content));
  } catch (error) {
    if (!(error instanceof EmbeddingRefused)) throw error;
    if (batch.length === 1) {
      console.warn(`baton: the embeddings API refused learning #${batch[0]!.seq} (${error.message}): it is searched by its words alone until it is edited`);
      await skipEmbedding(db, batch[0]!);
      return [null];
    }
    const one: (number[] | null)[] = [];
    for (const learning of batch) if (!stopped()) one.push(...(await vectorsOf(db, embedder, [learning], stopped)));
    return one;
  }
}

/**
 * Embeds learnings in the background, never on a request path: every couple of seconds it takes the
 * learnings whose flag is raised (new or edited ones), asks the embedder for their vectors in one
 * batch and stores them. When the embedder is down it waits and tries again; nothing is lost, the
 * flags stay raised. A batch the API refuses is asked for one text at a time, and a learning refused
 * alone (too long for the model, say) goes without a vector until it is edited, rather than holding up
 * every other. Several instances may run it at once: the worst case is a vector computed twice.
 */
export function startEmbeddingWorker(db: Db, embedder: Embedder): { stop: () => void; idle: () => Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();

  async function round(): Promise<number> {
    const batch = await learningsToEmbed(db, { limit: BATCH });
    if (!batch.length) return IDLE_MS;
    const vectors = await vectorsOf(db, embedder, batch, () => stopped);
    const width = vectors.find((v) => v)?.length;
    if (width === undefined) return 0;
    if ((await vectorTableWidth(db)) !== width || (await embeddingModel(db)) !== embedder.model) {
      await resetVectorTable(db, { dimensions: width, model: embedder.model });
      return 0;
    }
    for (const [i, learning] of batch.entries()) {
      const vector = vectors[i];
      if (vector && !stopped) await saveVector(db, { ...learning, vector });
    }
    await bumpContextVersion(db);
    return batch.length === BATCH ? 0 : IDLE_MS;
  }

  function schedule(ms: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      // As bookkeeping: on a database file its statements run on the writer thread (lib/db/bookkeeping.ts),
      // since adding a row to libSQL's vector index takes 0.1–0.5 s of a synchronous native call, which on
      // the main thread held every request up for seconds a batch.
      running = asBookkeeping(round).then(schedule, (error: unknown) => {
        console.warn(`baton: embedding learnings failed, retrying in ${RETRY_MS / 1000} s (${error instanceof Error ? error.message : error})`);
        schedule(RETRY_MS);
      });
    }, ms);
    timer.unref?.();
  }
  schedule(0);

  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
    idle: () => running,
  };
}
