import { describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { testWorld } from "../support/world";

const LIMIT = 12;
// Two instances on one database file, as Baton scales out. Each user makes one request while the
// world is built (ana creates alpha), so the tests use tokens of their own.
const world = testWorld({
  users: ["ana", "bo"],
  projects: { alpha: "ana" },
  members: [],
  tokens: { first: { user: "ana" }, other: { user: "bo" }, shared: { user: "bo", scope: "read" }, mcp: { user: "ana", scope: "read" }, batch: { user: "ana" } },
  env: { BATON_RATE_LIMIT: String(LIMIT) },
  instances: 2,
});

const MINUTE_MS = 60_000;
// Enough of the minute left for one test's requests: the count starts afresh each minute (20 s was
// too little for the MCP batches' test on a loaded 2-core machine).
const NEEDED_MS = 35_000;

async function sameMinute(): Promise<void> {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < NEEDED_MS) await new Promise((r) => setTimeout(r, left + 50));
}

async function statuses(baseUrl: string, token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await apiClient(baseUrl, token)("GET", "/api/projects")).status);
  return out;
}

/** Waits until the instances have shared a token's count (they flush about once a second). */
async function sharedCount(atLeast: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    // The fixtures name a token after its user and scope: bo's read token is the shared one.
    const rows = await world.sql("SELECT coalesce(max(count), 0) AS n FROM rate_limit_counts WHERE token_id IN (SELECT id FROM api_tokens WHERE name = 'bo@example.com read')");
    const n = Number(rows[0]!.n);
    if (n >= atLeast || Date.now() > deadline) return n;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("per-token rate limit", () => {
  it("answers 429 with Retry-After in the error shape past the limit; other tokens go on", async () => {
    await sameMinute();
    const [a] = world.servers;
    expect(await statuses(a!.url, world.tokens.first!, LIMIT)).toEqual(Array(LIMIT).fill(200));
    const refused = await apiClient(a!.url, world.tokens.first)("GET", "/api/projects");
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({ ok: false, error: { code: "rate_limited", message: expect.stringContaining(`${LIMIT} requests`) } });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // A write is refused the same way, and changes nothing.
    expect((await apiClient(a!.url, world.tokens.first)("POST", "/api/learnings", { kind: "pattern", content: "limited" })).status).toBe(429);
    expect(await statuses(a!.url, world.tokens.other!, 3)).toEqual([200, 200, 200]);
  });

  it("counts a token's requests on every instance against one limit", async () => {
    await sameMinute();
    const [a, b] = world.servers;
    const token = world.tokens.shared!;
    const fromA = LIMIT - 4;
    expect(await statuses(a!.url, token, fromA)).toEqual(Array(fromA).fill(200));
    expect(await sharedCount(fromA)).toBe(fromA);
    // b has not heard of the token yet: it lets requests through while its own count is under the
    // limit, and learns the shared total when it sends its count (the documented ~1 s of slack) …
    expect(await statuses(b!.url, token, 4)).toEqual([200, 200, 200, 200]);
    expect(await sharedCount(LIMIT)).toBe(LIMIT);
    // … after which it refuses, though it has seen only 4 of the token's requests itself.
    expect((await apiClient(b!.url, token)("GET", "/api/projects")).status).toBe(429);
  });

  it("limits MCP requests too, before the MCP handler, in the API's error shape", async () => {
    await sameMinute();
    const [a] = world.servers;
    const token = world.tokens.mcp!;
    await statuses(a!.url, token, LIMIT);
    const mcp = await apiClient(a!.url, token)(
      "POST",
      "/api/mcp",
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { accept: "application/json, text/event-stream" },
    );
    expect(mcp.status).toBe(429);
    expect(mcp.json.error.code).toBe("rate_limited");
    expect(Number(mcp.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("counts every message of an MCP batch: a batch past what is left of the minute is refused whole, before it runs", async () => {
    await sameMinute();
    const [a] = world.servers;
    const mcp = (messages: unknown[]) =>
      apiClient(a!.url, world.tokens.batch)("POST", "/api/mcp", messages, { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" });
    const pings = (n: number) => Array.from({ length: n }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" }));
    const proposals = Array.from({ length: LIMIT + 1 }, (_, id) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "propose_learning", arguments: { kind: "insight", content: `Batched fact number ${id} about zebras` } },
    }));
    const stored = async () => Number((await world.sql("SELECT count(*) AS n FROM proposals WHERE content LIKE 'Batched fact%'"))[0]!.n);

    // More messages than the token may send in a minute: refused, and not one of them ran.
    const tooMany = await mcp(proposals);
    expect(tooMany.status).toBe(429);
    expect(tooMany.json).toEqual({ ok: false, error: { code: "rate_limited", message: expect.stringContaining(`batch of ${LIMIT + 1} messages`) } });
    expect(Number(tooMany.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await stored()).toBe(0);

    // A refused batch counted nothing: the whole minute's allowance is still there, a batch spends it by its size …
    const ten = await mcp(pings(LIMIT - 2));
    expect(ten.status, ten.text).toBe(200);
    expect(ten.text.match(/"result"/g)).toHaveLength(LIMIT - 2);
    // … so three more would pass the limit, two do not, and then the token is spent.
    expect((await mcp(pings(3))).status).toBe(429);
    expect((await mcp(pings(2))).status).toBe(200);
    expect((await mcp(pings(1))).status).toBe(429);
  });
});
