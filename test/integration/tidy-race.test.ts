import { describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { testWorld } from "../support/world";

// Two people tidying one project's learnings at once, each through another instance on the one
// database file (how Baton scales out): opposite decisions on one pair must not both hold.
const world = testWorld({ tempPrefix: "baton-tidy-race-", instances: 2 });

describe("the tidy-up queue under two people at once", () => {
  it("two opposite decisions at once (keep A over B, keep B over A) never supersede both", async () => {
    const ana = apiClient(world.servers[0]!.url, world.tokens.ana);
    const bo = apiClient(world.servers[1]!.url, world.tokens.bo);
    for (let pair = 0; pair < 12; pair++) {
      const made = await Promise.all(["walrus", "narwhal"].map((word) => ana("POST", "/api/learnings", { kind: "pattern", project: "alpha", content: `Pair ${pair}: the ${word} cache is warmed at deploy.` })));
      const [a, b] = made.map((r) => r.json.learning.id as string);
      const [one, other] = await Promise.all([
        ana("POST", "/api/projects/alpha/tidy/replace", { keep: a, drop: b, how: "supersede" }),
        bo("POST", "/api/projects/alpha/tidy/replace", { keep: b, drop: a, how: "merge" }),
      ]);
      expect([one.status, other.status].sort(), `${one.text} ${other.text}`).toEqual([200, 409]);
      const superseded = await world.sql("SELECT count(*) AS n FROM learnings WHERE id IN (?, ?) AND superseded_at IS NOT NULL", [a!, b!]);
      expect(Number(superseded[0]!.n)).toBe(1);
    }
  });
});
