import { describe, expect, it } from "vitest";
import { WEB_TEAM, testWorld } from "../support/world";

// After a compaction the context leads with the session's own checkpoint: the handoff posted under its
// session id by its user. A teammate's handoff under the same id (ids are the client's to choose) is
// never shown as "this session".

const world = testWorld(WEB_TEAM);
const compact = (user: string, sessionId: string) =>
  world.as(user)("GET", `/api/context?project=web&source=compact&sessionId=${sessionId}&format=text`);

describe("the compact context's checkpoint", () => {
  it("is the session's own, never a teammate's handoff under the same session id", async () => {
    const posted = await world.as("bo")("POST", "/api/projects/web/handoffs", { markdown: "BO WROTE THIS checkpoint", sessionId: "shared-id", branch: "main" });
    expect(posted.status).toBe(201);
    // bo's own session: it leads.
    expect((await compact("bo", "shared-id")).text).toMatch(/^## This session before its compaction \(checkpoint, [^)]*by bo\), quoted:\n> BO WROTE THIS/);
    // ana's session of the same id: no checkpoint of hers, so the team's latest handoff, as any context shows it.
    const ana = (await compact("ana", "shared-id")).text;
    expect(ana).not.toContain("This session before its compaction");
    expect(ana).toMatch(/## Last handoff \(/);
  });
});
