import { getConfig } from "../config";
import { createEmbedder, createQueryEmbedder } from "./embedder";

const holder = globalThis as unknown as { __batonQueryEmbedder?: ((text: string) => Promise<number[] | null>) | null };

/** The process's query embedder (with its cache and cooldown), or undefined when none is configured. */
export function queryEmbedder(): ((text: string) => Promise<number[] | null>) | undefined {
  if (holder.__batonQueryEmbedder === undefined) {
    const config = getConfig().embeddings;
    holder.__batonQueryEmbedder = config ? createQueryEmbedder(createEmbedder(config)) : null;
  }
  return holder.__batonQueryEmbedder ?? undefined;
}
