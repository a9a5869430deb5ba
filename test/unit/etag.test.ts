import { describe, expect, it } from "vitest";
import { etagOf } from "@/lib/api/etag";

/** The ETag as Web Crypto gave it before: a client's stored tag still matches after an upgrade. */
async function webCryptoTag(body: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  return `"${Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

describe("etagOf", () => {
  it.each(["", "## Relevant learnings (3/120)\n- [fact] …", "héllo 😀 ‹system›", "lone \uD800 surrogate", "x".repeat(20_000)])("is SHA-256's first 16 bytes in hex, as Web Crypto gave them: %#", async (body) => {
    expect(etagOf(body)).toBe(await webCryptoTag(body));
    expect(etagOf(body)).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("differs for bodies that differ", () => {
    expect(etagOf("a")).not.toBe(etagOf("b"));
  });
});
