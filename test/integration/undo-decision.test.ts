import { beforeAll, describe, expect, it } from "vitest";
import { signInCookie } from "../support/dashboard-session";
import { callAction } from "../support/server-action";
import { emailOf, testWorld } from "../support/world";

// The review page's undo (undoAction, called as the page calls it) takes back a decision just made: the
// decider's own, while the learning is as the accept left it, and back to the proposal's text as stored,
// whatever text the call carries. ana owns web; bo is a member.
const world = testWorld({ users: ["ana", "bo"], projects: { web: "ana" }, members: [{ project: "web", user: "bo", role: "member" }], tokens: {}, tempPrefix: "baton-undo-" });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";
const cookies: Record<string, string> = {};
beforeAll(async () => {
  for (const who of ["ana", "bo"]) cookies[who] = await signInCookie(world.server.url, emailOf(who), PASSWORD);
});

const api = (who: string) => world.as(who);
const propose = async (content: string) => {
  const res = await api("ana")("POST", "/api/proposals", { kind: "pattern", content, project: "web" });
  expect(res.status, res.text).toBe(201);
  return res.json.proposal.id as string;
};
const undo = async (who: string, items: { id: string; content?: string }[]) => {
  const reply = await callAction(world.server.url, { name: "undoAction", page: "/proposals", body: JSON.stringify([items]), cookie: cookies[who] });
  expect(reply.status, reply.text.slice(0, 300)).toBe(200);
  return reply.result as { ok: boolean; message?: string; data?: { undone: number } };
};
const proposal = async (id: string) => (await world.sql("SELECT status, content, learning_id FROM proposals WHERE id = ?", [id]))[0]!;
const learningCount = async (id: string) => Number((await world.sql("SELECT count(*) AS n FROM learnings WHERE id = ?", [id]))[0]!.n);
const MADE_UP = "Rewritten by undo: deploys need no review";

describe("undoing a review decision", () => {
  it("an accept whose learning a teammate edited and pinned since: refused, their learning kept", async () => {
    const id = await propose("Run the linter before every push");
    const accepted = await api("bo")("POST", `/api/proposals/${id}/accept`);
    const learning = accepted.json.learning.id as string;
    const edited = await api("ana")("PATCH", `/api/learnings/${learning}`, { content: "Run the linter and the type check before every push", pinned: true });
    expect(edited.status, edited.text).toBe(200);

    const result = await undo("bo", [{ id, content: MADE_UP }]);
    expect(result.ok).toBe(false);
    expect(result.message).toContain("was edited, pinned since");
    expect(await learningCount(learning)).toBe(1);
    expect(await proposal(id)).toMatchObject({ status: "accepted", content: "Run the linter before every push", learning_id: learning });
  });

  it("the decider's own accept, edited in the accept: pending again with the proposal's text as stored, never the call's", async () => {
    const id = await propose("Squash fixup commits before merging");
    const accepted = await api("bo")("POST", `/api/proposals/${id}/accept`, { content: "Squash fixup commits before review" });
    expect(accepted.json.learning.content).toBe("Squash fixup commits before review");
    // The proposal says what was accepted (as the API always has).
    expect(accepted.json.proposal.content).toBe("Squash fixup commits before review");

    // Someone else (the project's owner included) may not take bo's decision back.
    const refused = await undo("ana", [{ id }]);
    expect(refused).toMatchObject({ ok: false, message: `Proposal ${id} was accepted by someone else; only they can undo it.` });
    expect(await learningCount(accepted.json.learning.id)).toBe(1);

    expect(await undo("bo", [{ id, content: MADE_UP }])).toMatchObject({ ok: true, data: { undone: 1 } });
    expect(await proposal(id)).toMatchObject({ status: "pending", content: "Squash fixup commits before review", learning_id: null });
    expect(await learningCount(accepted.json.learning.id)).toBe(0);
  });

  it("a reject: only its decider undoes it", async () => {
    const id = await propose("Tabs, not spaces");
    expect((await api("bo")("POST", `/api/proposals/${id}/reject`)).status).toBe(200);
    expect(await undo("ana", [{ id }])).toMatchObject({ ok: false, message: `Proposal ${id} was rejected by someone else; only they can undo it.` });
    expect(await undo("bo", [{ id, content: MADE_UP }])).toMatchObject({ ok: true, data: { undone: 1 } });
    expect(await proposal(id)).toMatchObject({ status: "pending", content: "Tabs, not spaces" });
  });
});
