import { getConfig } from "../config";
import { createEmbedder, createQueryEmbedder } from "./embedder";
import { processWide } from "../process/process-state";

/** The process's query embedder (with its cache and cooldown), or undefined when none is configured. */
export function queryEmbedder(): ((text: string) => Promise<number[] | null>) | undefined {
  return processWide("query embedder", () => {
    const config = getConfig().embeddings;
    return config ? createQueryEmbedder(createEmbedder(config)) : undefined;
  });
}
