import { describe, expect, it } from "vitest";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { testWorld } from "../support/world";

// A line BPE cannot count in time (one "word" of thousands of letters) is never shown and never holds
// the server up: counting the 160 KB line of one member's handoff once kept every request waiting 37 s.

// The production body limit (1 MB), not the tests' smaller one: a handoff of 160 KB is an allowed write.
const world = testWorld({ users: ["ana", "bo"], projects: { alpha: "ana" }, members: [{ project: "alpha", user: "bo", role: "member" }], tokens: {}, env: { BATON_MAX_BODY_BYTES: "1048576" } });
const ana = world.as("ana");
const bo = world.as("bo");

type Ctx = { context: string; tokenEstimate: number; budget: number };

describe("a team's text with a line too long to count", () => {
  it("shortens the handoff before the line, answers at once, and the count stays exact", async () => {
    const markdown = `# checkpoint\nThe deploy to staging went fine.\n${"a".repeat(160_000)}\nNext: the migration.`;
    expect((await bo("POST", "/api/projects/alpha/handoffs", { markdown, sessionId: "long-line-1" })).status).toBe(201);
    for (const query of ["project=alpha", "project=alpha&budget=32000&maxChars=200000"]) {
      const started = Date.now();
      const res = await ana("GET", `/api/context?${query}`);
      const health = await ana("GET", "/api/health");
      expect(res.status, res.text).toBe(200);
      expect(health.status).toBe(200);
      const ctx = res.json as Ctx;
      expect(ctx.context).toContain("The deploy to staging went fine.");
      // Shortened from the top, as a section is: what follows the line is counted, not cut in.
      expect(ctx.context).toContain("… 2 more lines of this handoff");
      expect(ctx.context).not.toContain("a".repeat(1_001));
      expect(ctx.tokenEstimate).toBe(countTokens(ctx.context));
      // A hang would take far longer; this is no speed figure (bench/ has those).
      expect(Date.now() - started).toBeLessThan(30_000);
    }
  });

  it("leaves out a learning that is one such word, and lists the others", async () => {
    for (const content of ["z".repeat(6_000), "Run make gen before building the client"]) {
      expect((await ana("POST", "/api/learnings", { kind: "insight", content, project: "alpha", confirmed: true })).status).toBe(201);
    }
    const res = await ana("GET", "/api/context?project=alpha&budget=32000&maxChars=200000");
    const ctx = res.json as Ctx;
    expect(ctx.context).toContain("Run make gen before building the client");
    expect(ctx.context).not.toContain("z".repeat(1_001));
    expect(ctx.tokenEstimate).toBe(countTokens(ctx.context));
  });
});
