import { describe, expect, it } from "vitest";
import { patientCall } from "@/cli/src/import/import-call";
import { seedParts } from "@/cli/src/import/import-formats";
import type { ApiResponse } from "@/cli/src/http/api-client";

describe("an import's requests", () => {
  it("wait out the token's rate limit for as long as the server says, then go on", async () => {
    const answers: ApiResponse[] = [
      { status: 429, text: '{"ok":false,"error":{"code":"rate_limited","message":"This token has made more than 600 requests this minute; try again in 3 s."}}', json: null, server: "http://x", contentType: "application/json" },
      { status: 200, text: "{}", json: {}, server: "http://x", contentType: "application/json" },
    ];
    const waits: number[] = [];
    const call = patientCall(async () => answers.shift()!, async (ms) => waits.push(ms));
    expect((await call("GET", "/api/x")).status).toBe(200);
    expect(waits).toEqual([3000]);
  });

  it("give up waiting after two minutes in all: the request then fails as answered", async () => {
    const waits: number[] = [];
    const call = patientCall(async () => ({ status: 429, text: "try again in 50 s", json: null, server: "http://x", contentType: "text/plain" }), async (ms) => waits.push(ms));
    expect((await call("GET", "/api/x")).status).toBe(429);
    expect(waits.reduce((a, b) => a + b, 0)).toBe(120_000);
  });
});

describe("a seed.json in parts", () => {
  const item = (i: number) => ({ id: `i${i}`, content: "x".repeat(1000), source: "s", extractedAt: "2026-01-01T00:00:00Z", confirmed: true, tags: [] });
  it("is split by weight as well as by rows, every item in exactly one part", () => {
    const seed = { version: "1", learned: { patterns: Array.from({ length: 10 }, (_, i) => item(i)), insights: [], selfKnowledge: [] } };
    const parts = seedParts(seed, 3_500);
    expect(parts.length).toBe(4);
    const ids = parts.flatMap((p) => (p.learned!.patterns as { id: string }[]).map((x) => x.id));
    expect(ids).toEqual(seed.learned.patterns.map((p) => p.id));
    expect(seedParts(seed)).toEqual([seed]);
  });
});
