import { sideClient } from "../support/side-db";
import { describe, expect, it } from "vitest";
import { createApiToken, revokeApiToken } from "@/lib/auth/api-tokens";
import { sessionPrincipal } from "@/lib/auth/principal";
import { openDatabase } from "@/lib/db/client";
import { acceptInvitation, inviteMember } from "@/lib/projects/invitations";
import { changeMemberRole, removeMember } from "@/lib/projects/members";
import { AUDIT_LABEL_CHARS } from "@/lib/rules";
import { emailOf, testWorld } from "../support/world";

// The audit trail: accept, reject, edit, delete of learnings and proposals through the API, member and
// token changes through the domain functions the dashboard's actions call; who did it (name and email,
// kept after the account is gone) and what it was (kind, id, first 80 characters, kept after a delete).

const world = testWorld({ users: ["ana", "bo", "vi", "cy", "dee"], tempPrefix: "baton-audit-" });

type Entry = { action: string; subject: { kind: string; id: string; label: string }; detail: string | null; actor: { name: string; email: string }; at: string };

const trail = async (who = "ana", query = "") => {
  const res = await world.as(who)("GET", `/api/projects/alpha/audit${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json as { items: Entry[]; nextCursor: string | null };
};

const userId = async (user: string) => String((await world.sql("SELECT id FROM users WHERE email = ?", [emailOf(user)]))[0]!.id);

describe("the audit trail", () => {
  const long = `Always run the migrations before the tests, ${"the test database is created empty and ".repeat(4)}that is that.`;
  let learningId: string;

  it("records an edit and a delete of a learning; the deleted learning stays readable in the trail", async () => {
    const created = await world.as("bo")("POST", "/api/learnings", { kind: "pattern", content: long, project: "alpha" });
    expect(created.status, created.text).toBe(201);
    learningId = created.json.learning.id;
    expect((await world.as("bo")("PATCH", `/api/learnings/${learningId}`, { content: `${long} Edited.` })).status).toBe(200);
    expect((await world.as("ana")("DELETE", `/api/learnings/${learningId}`)).status).toBeLessThan(300);
    expect((await world.as("ana")("GET", `/api/learnings/${learningId}`)).status).toBe(404);

    const [deleted, edited] = (await trail()).items;
    expect(deleted).toMatchObject({ action: "delete", subject: { kind: "learning", id: learningId }, actor: { name: "ana", email: emailOf("ana") } });
    expect(deleted!.subject.label).toBe(`${long} Edited.`.slice(0, AUDIT_LABEL_CHARS));
    expect(edited).toMatchObject({ action: "edit", subject: { kind: "learning", id: learningId }, detail: "changed content", actor: { name: "bo", email: emailOf("bo") } });
    expect(Date.parse(deleted!.at)).toBeGreaterThanOrEqual(Date.parse(edited!.at));
  });

  it("records accepting (edited) and rejecting proposals, and which agent proposed them when it said", async () => {
    const propose = async (content: string, agent = {}) =>
      (await world.as("bo")("POST", "/api/proposals", { kind: "insight", content, project: "alpha", ...agent })).json.proposal.id as string;
    const a = await propose("The staging database is read-only for the end-to-end tests.", { agent: "codex", model: "gpt-5.1" });
    const b = await propose("Deploys happen on Tuesdays after the standup meeting.");
    expect((await world.as("ana")("POST", `/api/proposals/${a}/accept`, { content: "Staging is read-only." })).status).toBe(200);
    expect((await world.as("bo")("POST", `/api/proposals/${b}/reject`)).status).toBe(200);
    const [rejected, accepted] = (await trail()).items;
    expect(rejected).toMatchObject({ action: "reject", subject: { kind: "proposal", id: b, label: "Deploys happen on Tuesdays after the standup meeting." }, actor: { name: "bo" } });
    expect(accepted).toMatchObject({ action: "accept", subject: { kind: "proposal", id: a, label: "Staging is read-only." }, detail: "edited before accepting; proposed by Codex CLI · gpt-5.1", actor: { name: "ana" } });
    expect(rejected!.detail).toBeNull();
  });

  it("records member changes; the actor stays named after their account is deleted", async () => {
    const db = openDatabase(world.databaseUrl);
    try {
      const ana = sessionPrincipal(await userId("ana"));
      const dee = sessionPrincipal(await userId("dee"));
      await inviteMember(db.db, ana, "alpha", { email: emailOf("dee"), role: "owner" });
      await acceptInvitation(db.db, dee, "alpha");
      await inviteMember(db.db, dee, "alpha", { email: emailOf("cy"), role: "viewer" });
      await acceptInvitation(db.db, sessionPrincipal(await userId("cy")), "alpha");
      await changeMemberRole(db.db, dee, "alpha", { userId: await userId("cy"), role: "member" });
      await removeMember(db.db, dee, "alpha", { userId: await userId("cy") });
    } finally {
      db.client.close();
    }
    // dee leaves: the account is deleted, the trail keeps who it was.
    const raw = sideClient(world.databaseUrl);
    await raw.execute("PRAGMA foreign_keys = ON");
    await raw.execute({ sql: "DELETE FROM users WHERE email = ?", args: [emailOf("dee")] });
    raw.close();
    const items = (await trail()).items.slice(0, 6);
    expect(items.map((e) => [e.action, e.subject.kind, e.subject.label, e.detail, e.actor.name, e.actor.email])).toEqual([
      ["delete", "member", emailOf("cy"), "was member", "dee", emailOf("dee")],
      ["edit", "member", emailOf("cy"), "role viewer → member", "dee", emailOf("dee")],
      ["accept", "invitation", emailOf("cy"), "as viewer", "cy", emailOf("cy")],
      ["add", "invitation", emailOf("cy"), "as viewer", "dee", emailOf("dee")],
      ["accept", "invitation", emailOf("dee"), "as owner", "dee", emailOf("dee")],
      ["add", "invitation", emailOf("dee"), "as owner", "ana", emailOf("ana")],
    ]);
  });

  it("records tokens as their owner's (no project): kept, not shown in a project's trail", async () => {
    const db = openDatabase(world.databaseUrl);
    try {
      const bo = await userId("bo");
      const { record } = await createApiToken(db.db, { userId: bo, name: "ci runner", projects: ["alpha"] });
      await revokeApiToken(db.db, { userId: bo, tokenId: record.id });
      const rows = await world.sql("SELECT action, project_id, owner_user_id, subject_label FROM audit_log WHERE subject_id = ? ORDER BY id", [record.id]);
      expect(rows.map((r) => [r.action, r.project_id, r.owner_user_id, r.subject_label])).toEqual([
        ["add", null, bo, "ci runner"],
        ["delete", null, bo, "ci runner"],
      ]);
    } finally {
      db.client.close();
    }
    expect((await trail()).items.some((e) => e.subject.kind === "token")).toBe(false);
  });

  it("pages newest first with the shared cursor", async () => {
    const all = (await trail("ana", "?limit=100")).items;
    const seen: Entry[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page = await trail("ana", `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThan(6);
  });

  it.each([
    ["a member", "bo", 403],
    ["a viewer", "vi", 403],
    ["a read token of the owner", "anaRead", 200],
    ["someone outside the project", "cy", 404],
    ["a token limited to another project", "anaGammaOnly", 403],
  ])("is for owners only: %s gets %i", async (_who, token, status) => {
    const res = await world.as(token)("GET", "/api/projects/alpha/audit");
    expect(res.status, res.text).toBe(status);
    if (status !== 200) expect(res.json).toMatchObject({ ok: false, error: { code: status === 403 ? "forbidden" : "not_found" } });
  });

  it("refuses a bad cursor or limit with 400", async () => {
    expect((await world.as("ana")("GET", "/api/projects/alpha/audit?cursor=nonsense")).status).toBe(400);
    expect((await world.as("ana")("GET", "/api/projects/alpha/audit?limit=0")).status).toBe(400);
  });
});
