import { describe, expect, it } from "vitest";
import { testWorld } from "../support/world";

// A handoff is dated when it was written (a hook that could not reach the server sends it later from
// its spool), within the spool's 14 days and never ahead of now.
const world = testWorld({ tempPrefix: "baton-handoff-dating-" });

describe("POST /api/projects/{slug}/handoffs with writtenAt", () => {
  it("is dated when it was written (writtenAt, as a hook sends it from its spool), within 14 days back and never ahead of now", async () => {
    const DAY = 86_400_000;
    const post = (body: Record<string, unknown>) => world.as("ana")("POST", "/api/projects/gamma/handoffs", { branch: "dating", ...body });
    const late = await post({ markdown: "Written three days ago, sent now.", sessionId: "dated-late", writtenAt: new Date(Date.now() - 3 * DAY).toISOString() });
    expect(late.status, late.text).toBe(201);
    expect(Date.now() - Date.parse(late.json.handoff.createdAt)).toBeGreaterThan(3 * DAY - 60_000);
    const fresh = await post({ markdown: "Written today." });
    // The late one does not pass for the latest.
    expect((await world.as("ana")("GET", "/api/projects/gamma/handoffs/latest?branch=dating")).json.handoff.id).toBe(fresh.json.handoff.id);
    const ancient = await post({ markdown: "A month old.", writtenAt: new Date(Date.now() - 30 * DAY).toISOString() });
    expect(Math.abs(Date.now() - 14 * DAY - Date.parse(ancient.json.handoff.createdAt))).toBeLessThan(60_000);
    const ahead = await post({ markdown: "From the future.", writtenAt: new Date(Date.now() + DAY).toISOString() });
    expect(Date.parse(ahead.json.handoff.createdAt)).toBeLessThanOrEqual(Date.now());
    // A copy of a session's handoff written before the stored one (sent late) changes nothing; a newer one replaces it.
    const older = await post({ markdown: "Turn 1, sent late.", sessionId: "dated-late", writtenAt: new Date(Date.now() - 5 * DAY).toISOString() });
    expect(older.status).toBe(200);
    expect(older.json.handoff).toMatchObject({ markdown: "Written three days ago, sent now.", createdAt: late.json.handoff.createdAt });
    const newer = await post({ markdown: "Turn 3.", sessionId: "dated-late", writtenAt: new Date(Date.now() - 2 * DAY).toISOString() });
    expect(newer.json.handoff.markdown).toBe("Turn 3.");
    const bad = await post({ markdown: "x", writtenAt: "yesterday" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/writtenAt/);
  });

  it("two handoffs of one time: the context's last handoff is the one /handoffs/latest names", async () => {
    for (let i = 0; i < 6; i++) {
      const writtenAt = new Date(Date.now() - (i + 1) * 60_000).toISOString();
      for (const who of ["first", "second"]) {
        expect((await world.as("ana")("POST", "/api/projects/gamma/handoffs", { markdown: `Tie ${i}, the ${who}.`, branch: `tie-${i}`, writtenAt })).status).toBe(201);
      }
      const latest = (await world.as("ana")("GET", `/api/projects/gamma/handoffs/latest?branch=tie-${i}`)).json.handoff.markdown as string;
      const context = await world.as("ana")("GET", `/api/context?project=gamma&branch=tie-${i}&format=text&budget=4000`);
      expect(context.text).toContain(`> ${latest}`);
    }
  });
});
