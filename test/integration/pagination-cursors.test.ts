import { describe, expect, it } from "vitest";
import { encodeCursor } from "@/lib/pagination/cursor";
import { testWorld } from "../support/world";

// A cursor is client input: each list route answers a forged one with 400 in the JSON error shape,
// never a 500 from a query that got a value it cannot use (an offset of 1.5, a time no Date holds).

const world = testWorld({ users: ["ana"], projects: { alpha: "ana" }, members: [], tokens: {}, tempPrefix: "baton-cursors-" });

const ROUTES = [
  "/api/learnings",
  "/api/learnings?q=flux",
  "/api/projects/alpha/handoffs",
  "/api/projects/alpha/sessions",
  "/api/proposals",
  "/api/projects/alpha/audit",
];

const forged: [string, string][] = [
  ["a fraction", encodeCursor([1.5])],
  ["a fraction and an id", encodeCursor([1.5, "x"])],
  ["1e308 and an id", encodeCursor([1e308, "00000000-0000-0000-0000-000000000000"])],
  ["1e308 twice", encodeCursor([1e308, 1e308])],
  ["1e308, 1e308 and an id", encodeCursor([1e308, 1e308, "x"])],
  ["a time past any Date", encodeCursor([8.64e15 + 1, "x"])],
  ["a negative offset", encodeCursor([-5])],
  ["no parts", encodeCursor([])],
  ["too many parts", encodeCursor([1, 2, 3, 4])],
  ["strings for numbers", encodeCursor(["1", "2", "3"])],
  ["null", encodeCursor([null])],
  ["an object", encodeCursor({ offset: 1 } as unknown as unknown[])],
  ["a bare number", btoa("12")],
  ["an empty id", encodeCursor([1, ""])],
  ["a huge id", encodeCursor([1, "x".repeat(400)])],
  ["a huge cursor", "A".repeat(20_000)],
  ["not base64", "%%%not-base64!!"],
  ["base64 of no JSON", btoa("[1,")],
];

describe.each(ROUTES)("forged cursors on %s", (route) => {
  it.each(forged)("%s → 400", async (_what, cursor) => {
    const res = await world.as("ana")("GET", `${route}${route.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^(bad_request|validation_failed)$/), message: expect.any(String) } });
  });
});

describe("the cursors the server gives out still page", () => {
  it("learnings, newest first and by search, across pages", async () => {
    for (let i = 0; i < 3; i++) expect((await world.as("ana")("POST", "/api/learnings", { kind: "insight", content: `Flux capacitor note ${i}` })).status).toBe(201);
    for (const route of ["/api/learnings?limit=2", "/api/learnings?q=flux&limit=2"]) {
      const first = await world.as("ana")("GET", route);
      expect(first.json.items).toHaveLength(2);
      const second = await world.as("ana")("GET", `${route}&cursor=${first.json.nextCursor}`);
      expect(second.status, second.text).toBe(200);
      expect(second.json.items).toHaveLength(1);
    }
  });
});
