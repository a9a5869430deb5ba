import { createHash } from "node:crypto";

/**
 * A strong ETag over the bytes a client receives: the first 16 bytes of their SHA-256, in hex. An HTTP
 * concern, here rather than in lib/context (web-standard APIs only): Node's hash runs in the request's
 * own turn, where Web Crypto's digest is asynchronous (a trip through the thread pool) and cost a
 * context about 1 ms of its ~10 (BENCHMARKS.md, issue 25).
 */
export function etagOf(body: string): string {
  return `"${createHash("sha256").update(body, "utf8").digest("hex").slice(0, 32)}"`;
}
