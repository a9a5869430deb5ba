/**
 * A client of any OpenAI-compatible embeddings API (OpenAI, Ollama, LM Studio, vLLM, LocalAI …):
 * POST {model, input: string[]} → {data: [{index, embedding}]}. Web-standard fetch only.
 */
import { BoundedCache } from "../process/bounded-cache";
import { fetchWithin } from "../process/fetch-within";

/**
 * The API refused these texts (a 4xx other than 408/429: too long for the model, say), as opposed to
 * being down: asking again with the same texts gets the same answer.
 */
export class EmbeddingRefused extends Error {}

const refusal = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

export type Embedder = {
  model: string;
  embed(texts: string[], options?: { timeoutMs?: number }): Promise<number[][]>;
};

export function createEmbedder(config: { url: string; model: string; apiKey: string | undefined }): Embedder {
  return {
    model: config.model,
    async embed(texts, options = {}) {
      const headers = { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) };
      const res = await fetchWithin(config.url, { method: "POST", headers, body: JSON.stringify({ model: config.model, input: texts }) }, options.timeoutMs ?? 30_000);
      if (!res.ok) throw new (refusal(res.status) ? EmbeddingRefused : Error)(`embeddings API answered ${res.status}`);
      const body = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
      const vectors: number[][] = new Array(texts.length);
      for (const [i, item] of (body.data ?? []).entries()) {
        const embedding = item.embedding;
        if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === "number")) throw new Error("embeddings API sent no vector");
        vectors[item.index ?? i] = embedding;
      }
      if (vectors.length !== texts.length || vectors.some((v) => !v)) throw new Error("embeddings API sent fewer vectors than texts");
      return vectors;
    },
  };
}

/**
 * The query side, on the request path: bounded by a short timeout, remembered per text, and switched
 * off for a while after a failure, so an embedder that is down costs a context request nothing more
 * than one timeout a minute — and never fails it.
 */
export function createQueryEmbedder(embedder: Embedder, options = { timeoutMs: 1500, cooldownMs: 60_000, cacheSize: 500 }) {
  const cache = new BoundedCache<string, number[]>(options.cacheSize);
  let downUntil = 0;
  return async (text: string): Promise<number[] | null> => {
    const hit = cache.get(text);
    if (hit) return hit;
    if (Date.now() < downUntil) return null;
    try {
      const [vector] = await embedder.embed([text], { timeoutMs: options.timeoutMs });
      cache.set(text, vector!);
      return vector!;
    } catch (error) {
      // A text the API refuses (a pasted log too long for the model) says nothing about the next one.
      if (error instanceof EmbeddingRefused) return null;
      downUntil = Date.now() + options.cooldownMs;
      console.warn(`baton: embeddings unavailable, ranking by full-text search alone for a minute (${error instanceof Error ? error.message : error})`);
      return null;
    }
  };
}
