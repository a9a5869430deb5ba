import { createServer, type Server } from "node:http";
import { freePort } from "./server";

/**
 * A local stand-in for an OpenAI-compatible embeddings API (POST /v1/embeddings). Its vectors put
 * words of one concept on one axis, so paraphrases land close together the way a real model's do:
 * "logged out" and "session cookie expired" share the "session" axis without sharing a word.
 */
const CONCEPTS: Record<string, string[]> = {
  session: ["login", "logged", "signed", "sign", "session", "cookie", "cookies", "expire", "expired", "expires", "kicked", "logout"],
  money: ["price", "prices", "currency", "cents", "yen", "amount", "invoice", "payout", "payouts", "refund"],
  speed: ["slow", "latency", "fast", "performance", "sluggish", "p99", "lag"],
  deploy: ["deploy", "deploys", "release", "ship", "rollout", "staging", "production"],
  storage: ["disk", "full", "storage", "volume", "space"],
};
export const DIMENSIONS = 16;

function embed(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  const names = Object.keys(CONCEPTS);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const concept = names.findIndex((n) => CONCEPTS[n]!.includes(word));
    if (concept >= 0) v[concept]! += 1;
    else v[names.length + (word.length % (DIMENSIONS - names.length))]! += 0.05;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export type FakeEmbedder = { url: string; requests: string[][]; stop: () => Promise<void> };

/** `maxChars`: a request with a longer text is refused with 400, as a model with a small input limit refuses it. */
export async function startFakeEmbedder(options: { maxChars?: number } = {}): Promise<FakeEmbedder> {
  const requests: string[][] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404).end();
        return;
      }
      const { input } = JSON.parse(body) as { model: string; input: string | string[] };
      const texts = Array.isArray(input) ? input : [input];
      requests.push(texts);
      if (options.maxChars !== undefined && texts.some((t) => t.length > options.maxChars!)) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "input is too long for the model" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", model: "fake", data: texts.map((t, index) => ({ object: "embedding", index, embedding: embed(t) })) }));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
