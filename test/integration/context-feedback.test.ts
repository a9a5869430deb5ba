import { beforeAll, describe, expect, it } from "vitest";
import { testWorld } from "../support/world";
import { learningSectionLines } from "../support/context-text";

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const ana = world.as("ana");

const MATCH = "Stripe webhook events are verified with the signing secret before the body is parsed";
// Shares no word with the hints below, only a tag with the learning that matches them.
const TAG_SIBLING = "Refunds go through the ledger queue and are never issued inline from a request handler";
const FILLERS = [
  "Use pnpm, never npm, in this repository",
  "The design review happens on Thursdays",
  "Storybook runs on port 6006",
  "Lint errors block the merge queue",
  "Feature branches are deleted after merging",
  "The staging database is reset every Sunday night",
];

beforeAll(async () => {
  const post = async (body: Record<string, unknown>) => expect((await ana("POST", "/api/learnings", { project: "web", ...body })).status).toBe(201);
  await post({ kind: "insight", content: MATCH, tags: ["payments", "webhooks"], confirmed: true });
  // Old and unconfirmed: the recent fill would list it last.
  await post({ kind: "pattern", content: TAG_SIBLING, tags: ["payments"], confirmed: false, createdAt: "2025-01-06T09:00:00.000Z" });
  for (const content of FILLERS) await post({ kind: "pattern", content, tags: ["tooling"], confirmed: true });
});

describe("session-start ranking: feedback from the best matches' tags", () => {
  it("ranks a learning tagged like the best match right after it, though it shares no word with the hints", async () => {
    const res = await ana("GET", `/api/context?project=web&branch=feat/verify-stripe-signature&q=${encodeURIComponent("Verify Stripe webhook signature")}`);
    expect(res.status).toBe(200);
    const lines = learningSectionLines(res.json.context as string);
    expect(lines).toHaveLength(2 + FILLERS.length);
    expect(lines[0]).toContain(MATCH);
    expect(lines[1]).toContain(TAG_SIBLING);
  });
});
