import type { Db } from "../db/client";
import { bumpContextVersion, embeddingModel, learningsToEmbed, resetVectorTable, saveVector, vectorTableWidth } from "../db/queries/embeddings";
import type { Embedder } from "./embedder";

const BATCH = 32;
const IDLE_MS = 2000;
const RETRY_MS = 30_000;

/**
 * Embeds learnings in the background, never on a request path: every couple of seconds it takes the
 * learnings whose flag is raised (new or edited ones), asks the embedder for their vectors in one
 * batch and stores them. When the embedder is down it waits and tries again; nothing is lost, the
 * flags stay raised. Several instances may run it at once: the worst case is a vector computed twice.
 */
export function startEmbeddingWorker(db: Db, embedder: Embedder): { stop: () => void; idle: () => Promise<void> } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();

  async function round(): Promise<number> {
    const batch = await learningsToEmbed(db, { limit: BATCH });
    if (!batch.length) return IDLE_MS;
    const vectors = await embedder.embed(batch.map((l) => l.content));
    const width = vectors[0]!.length;
    if ((await vectorTableWidth(db)) !== width || (await embeddingModel(db)) !== embedder.model) {
      await resetVectorTable(db, { dimensions: width, model: embedder.model });
      return 0;
    }
    for (const [i, learning] of batch.entries()) await saveVector(db, { ...learning, vector: vectors[i]! });
    await bumpContextVersion(db);
    return batch.length === BATCH ? 0 : IDLE_MS;
  }

  function schedule(ms: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round().then(schedule, (error: unknown) => {
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
