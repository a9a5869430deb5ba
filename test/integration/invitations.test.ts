import { describe, expect, it } from "vitest";
import { signInCookie } from "../support/dashboard-session";
import { createUserWithToken } from "../support/fixtures";
import { hiddenFields, send } from "../support/page-form";
import { emailOf, testWorld } from "../support/world";

// Membership by consent (issue 21): an owner's invitation makes nobody a member until they accept;
// the answer to an invitation is the same whatever the email; a member can leave, the last owner
// cannot. Over the real server: ana owns web (bo a member, through invite and accept); cy, dee and
// eve have accounts and no projects.

const world = testWorld({
  users: ["ana", "bo", "cy", "dee", "eve"],
  projects: { web: "ana", side: "cy" },
  members: [{ project: "web", user: "bo", role: "member" }],
  tokens: { cyRead: { user: "cy", scope: "read" }, cySideOnly: { user: "cy", projects: ["side"] } },
  tempPrefix: "baton-invitations-",
});

const invite = (email: string, role = "member", who = "ana", slug = "web") => world.as(who)("POST", `/api/projects/${slug}/invitations`, { email, role });
const answer = (who: string, verb: "accept" | "decline", slug = "web") => world.as(who)("POST", `/api/invites/${slug}/${verb}`);
const myInvites = async (who: string) => {
  const res = await world.as(who)("GET", "/api/invites");
  expect(res.status, res.text).toBe(200);
  return res.json.items as { project: { slug: string; name: string }; role: string; invitedBy: { name: string; email: string } | null; createdAt: string }[];
};
const pendingOf = async (slug = "web") => {
  const res = await world.as("ana")("GET", `/api/projects/${slug}/invitations`);
  expect(res.status, res.text).toBe(200);
  return res.json.items as { id: string; email: string; role: string }[];
};
const roleIn = async (who: string, slug = "web") => {
  const res = await world.as(who)("GET", `/api/projects/${slug}`);
  return res.status === 200 ? (res.json.project.role as string) : res.status;
};
const trail = async () => ((await world.as("ana")("GET", "/api/projects/web/audit?limit=100")).json.items as { action: string; subject: { kind: string; label: string }; detail: string | null; actor: { email: string } }[]);

describe("invitations", () => {
  it("invited is not a member; accepting makes one, with the invited role", async () => {
    expect((await invite(emailOf("cy"), "viewer")).status).toBe(202);
    expect(await roleIn("cy")).toBe(404);
    expect((await world.as("cy")("GET", "/api/projects")).json.items.map((p: { slug: string }) => p.slug)).toEqual(["side"]);
    const [invitation] = await myInvites("cy");
    expect(invitation).toMatchObject({ project: { slug: "web", name: "WEB" }, role: "viewer", invitedBy: { name: "ana", email: emailOf("ana") } });
    expect(Date.parse(invitation!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await pendingOf()).map((i) => [i.email, i.role])).toEqual([[emailOf("cy"), "viewer"]]);

    const accepted = await answer("cy", "accept");
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.project).toEqual({ slug: "web", name: "WEB", role: "viewer" });
    expect(await roleIn("cy")).toBe("viewer");
    expect(await myInvites("cy")).toEqual([]);
    expect(await pendingOf()).toEqual([]);
    // Answered once: a second answer finds nothing.
    expect((await answer("cy", "accept")).status).toBe(404);
  });

  it("declining leaves them out, and the invitation cannot be accepted afterwards", async () => {
    expect((await invite(emailOf("dee"))).status).toBe(202);
    const declined = await answer("dee", "decline");
    expect(declined.status, declined.text).toBe(200);
    expect(await myInvites("dee")).toEqual([]);
    expect((await answer("dee", "accept")).status).toBe(404);
    expect(await roleIn("dee")).toBe(404);
  });

  it("answers the same whatever the email: unknown, an account, invited already, a member; nothing stored twice", async () => {
    const bodies = [];
    for (const email of ["nobody@example.com", emailOf("eve"), emailOf("eve"), "EVE@Example.com", emailOf("bo"), emailOf("ana")]) {
      const res = await invite(email);
      expect(res.status, res.text).toBe(202);
      // Each gets a link of its own (to nothing, for a member: test/integration/invitation-links.test.ts).
      expect(res.json.invitation.link).toMatch(/\/join\/join_[\w-]{43}$/);
      bodies.push({ ...res.json, invitation: { ...res.json.invitation, email: "x", link: "L" }, message: res.json.message.replace(email.toLowerCase(), "x") });
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
    expect(bodies[0]).toEqual({
      ok: true,
      invitation: { email: "x", role: "member", link: "L", mailed: false },
      message: "Invitation sent to x. Copy the link and send it to them: it is shown here once.",
    });
    expect((await pendingOf()).map((i) => i.email).sort()).toEqual([emailOf("eve"), "nobody@example.com"]);
    // A member invited again keeps their role and gets no invitation.
    expect(await roleIn("bo")).toBe("member");
    expect(await myInvites("bo")).toEqual([]);
  });

  it("an invitation to an email without an account waits until one is created, then shows among its invitations", async () => {
    expect((await invite("fay@example.com", "member")).status).toBe(202);
    world.tokens.fay = await createUserWithToken(world.databaseUrl, "fay@example.com");
    expect((await myInvites("fay")).map((i) => [i.project.slug, i.role])).toEqual([["web", "member"]]);
    expect((await answer("fay", "accept")).status).toBe(200);
    expect(await roleIn("fay")).toBe("member");
  });

  it("an owner revokes a pending invitation; it cannot be accepted then", async () => {
    const nobody = (await pendingOf()).find((i) => i.email === "nobody@example.com")!;
    expect((await world.as("ana")("DELETE", `/api/projects/web/invitations/${nobody.id}`)).status).toBe(200);
    expect((await world.as("ana")("DELETE", `/api/projects/web/invitations/${nobody.id}`)).status).toBe(404);
    world.tokens.nobody = await createUserWithToken(world.databaseUrl, "nobody@example.com");
    expect(await myInvites("nobody")).toEqual([]);
    expect((await answer("nobody", "accept")).status).toBe(404);
  });

  it.each([
    ["a member invites", () => invite(emailOf("dee"), "member", "bo"), 403],
    ["someone outside the project invites", () => invite(emailOf("dee"), "member", "dee"), 404],
    ["an email that is not one", () => invite("not an email"), 400],
    ["a role that does not exist", () => invite(emailOf("dee"), "admin"), 400],
    ["a member lists the pending invitations", () => world.as("bo")("GET", "/api/projects/web/invitations"), 403],
    ["a member revokes one", () => world.as("bo")("DELETE", "/api/projects/web/invitations/whatever"), 403],
    ["accepting with no invitation", () => answer("dee", "accept", "side"), 404],
    ["accepting to a project that does not exist", () => answer("dee", "accept", "nowhere"), 404],
    ["accepting with a read token", () => answer("cyRead", "accept", "web"), 403],
    ["leaving a project one is not in", () => world.as("dee")("DELETE", "/api/projects/web/members/me"), 404],
    ["leaving with a read token", () => world.as("cyRead")("DELETE", "/api/projects/web/members/me"), 403],
  ])("refuses: %s", async (_what, request, status) => {
    const res = await request();
    expect(res.status, res.text).toBe(status);
    expect(res.json).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
  });

  it("a token limited to some projects cannot join others", async () => {
    expect((await invite(emailOf("cy"), "member", "ana", "web")).status).toBe(202); // cy is a member: nothing stored
    await world.as("ana")("POST", "/api/projects", { slug: "third", name: "Third" });
    expect((await invite(emailOf("cy"), "member", "ana", "third")).status).toBe(202);
    expect((await answer("cySideOnly", "accept", "third")).status).toBe(403);
    expect((await answer("cy", "decline", "third")).status).toBe(200);
  });

  it("a member leaves; the last owner cannot, until another owner exists", async () => {
    expect((await world.as("fay")("DELETE", "/api/projects/web/members/me")).status).toBe(200);
    expect(await roleIn("fay")).toBe(404);
    const last = await world.as("ana")("DELETE", "/api/projects/web/members/me");
    expect(last.status, last.text).toBe(409);
    expect(last.json.error).toMatchObject({ code: "conflict", message: expect.stringContaining("last owner") });
    expect(await roleIn("ana")).toBe("owner");

    // With a second owner (by invitation, accepted), the first may leave.
    await world.as("ana")("POST", "/api/projects", { slug: "handover", name: "Handover" });
    expect((await invite(emailOf("dee"), "owner", "ana", "handover")).status).toBe(202);
    expect((await answer("dee", "accept", "handover")).status).toBe(200);
    expect((await world.as("ana")("DELETE", "/api/projects/handover/members/me")).status).toBe(200);
    expect(await roleIn("dee", "handover")).toBe("owner");
    expect((await world.as("dee")("DELETE", "/api/projects/handover/members/me")).status).toBe(409);
  });

  it("records every decision in the project's audit trail", async () => {
    const rows = (await trail()).map((e) => [e.action, e.subject.kind, e.subject.label, e.detail, e.actor.email]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ["add", "invitation", emailOf("cy"), "as viewer", emailOf("ana")],
        ["accept", "invitation", emailOf("cy"), "as viewer", emailOf("cy")],
        ["reject", "invitation", emailOf("dee"), "was member", emailOf("dee")],
        ["delete", "invitation", "nobody@example.com", "was member", emailOf("ana")],
        ["delete", "member", "fay@example.com", "left (was member)", "fay@example.com"],
      ]),
    );
    // Re-inviting someone invited already or a member recorded nothing.
    expect(rows.filter(([action, kind, label]) => action === "add" && kind === "invitation" && label === emailOf("eve"))).toHaveLength(1);
    expect(rows.filter(([action, kind, label]) => action === "add" && kind === "invitation" && label === emailOf("bo"))).toHaveLength(1);
  });
});

describe("nothing flows to or from a project before its invitation is accepted", () => {
  const REMOTE = "git@github.com:acme/shared-app.git";
  const OWNERS_LESSON = "The shared-app deploys are frozen on Fridays after noon";

  it("a pending invitee gets none of the project's context and cannot write to it; after accepting they do", async () => {
    const ana = world.as("ana");
    expect((await ana("POST", "/api/projects", { slug: "shared", name: "Shared" })).status).toBe(201);
    await world.sql("INSERT INTO project_matchers (id, project_id, kind, pattern, created_at) SELECT 'm-shared', id, 'remote', 'github.com/acme/shared-app', 0 FROM projects WHERE slug = 'shared'");
    expect((await ana("POST", "/api/learnings", { kind: "pattern", content: OWNERS_LESSON, project: "shared" })).status).toBe(201);
    expect((await ana("POST", "/api/projects/shared/handoffs", { markdown: "Ana's handoff: the migration is half done.", branch: "main" })).status).toBe(201);
    expect((await invite(emailOf("eve"), "member", "ana", "shared")).status).toBe(202);

    const eve = world.as("eve");
    const byRemote = await eve("GET", `/api/context?remote=${encodeURIComponent(REMOTE)}&budget=2000`);
    expect(byRemote.status, byRemote.text).toBe(200);
    expect(byRemote.json.project).toBeNull();
    expect(byRemote.json.context).not.toContain(OWNERS_LESSON);
    expect(byRemote.json.context).not.toContain("Ana's handoff");
    expect((await eve("GET", "/api/context?project=shared")).status).toBe(404);
    // Eve's session end cannot post into it, nor can her learnings.
    expect((await eve("POST", "/api/projects/shared/handoffs", { markdown: "Eve asked about her private repo.", branch: "main" })).status).toBe(404);
    expect((await eve("POST", "/api/learnings", { kind: "insight", content: "Eve's private lesson", project: "shared" })).status).toBe(404);
    const handoffs = await ana("GET", "/api/projects/shared/handoffs");
    expect(handoffs.json.items.map((h: { markdown: string }) => h.markdown)).toEqual(["Ana's handoff: the migration is half done."]);

    expect((await answer("eve", "accept", "shared")).status).toBe(200);
    const joined = await eve("GET", `/api/context?remote=${encodeURIComponent(REMOTE)}&budget=2000`);
    expect(joined.json.project).toMatchObject({ slug: "shared" });
    expect(joined.json.context).toContain(OWNERS_LESSON);
  });
});

describe("an invitation stands on its inviter's authority", () => {
  const linkToken = (res: { json: { invitation: { link: string } } }) => res.json.invitation.link.split("/join/")[1]!;
  // The join routes answer whoever holds the link: no token.
  const open = (token: string) => world.as("anyone")("GET", `/api/join/${token}`);

  it("invited again with another role: the new role stands, and the trail says so", async () => {
    expect((await world.as("ana")("POST", "/api/projects", { slug: "roles", name: "Roles" })).status).toBe(201);
    expect((await invite("gus@example.com", "owner", "ana", "roles")).status).toBe(202);
    const again = await invite("gus@example.com", "viewer", "ana", "roles");
    expect(again.status, again.text).toBe(202);
    expect(again.json.invitation.role).toBe("viewer");
    expect((await pendingOf("roles")).map((i) => [i.email, i.role])).toEqual([["gus@example.com", "viewer"]]);
    world.tokens.gus = await createUserWithToken(world.databaseUrl, "gus@example.com");
    expect((await answer("gus", "accept", "roles")).json.project).toMatchObject({ slug: "roles", role: "viewer" });
    expect(await roleIn("gus", "roles")).toBe("viewer");
    const rows = (await world.as("ana")("GET", "/api/projects/roles/audit?limit=100")).json.items as { action: string; subject: { label: string }; detail: string | null }[];
    expect(rows.map((e) => [e.action, e.subject.label, e.detail])).toEqual(expect.arrayContaining([["edit", "gus@example.com", "invited again as viewer"]]));
  });

  it("an owner who leaves takes their pending invitations with them, until another owner invites that email again", async () => {
    expect((await world.as("ana")("POST", "/api/projects", { slug: "crew", name: "Crew" })).status).toBe(201);
    expect((await invite(emailOf("dee"), "owner", "ana", "crew")).status).toBe(202);
    expect((await answer("dee", "accept", "crew")).status).toBe(200);
    const byDee = await invite("ivy@example.com", "owner", "dee", "crew");
    expect(byDee.status, byDee.text).toBe(202);
    expect((await open(linkToken(byDee))).status).toBe(200);
    expect((await world.as("dee")("DELETE", "/api/projects/crew/members/me")).status).toBe(200);

    // Dee is gone: the link opens nothing, the owners see nothing pending, the invitee has nothing to accept.
    const dead = await open(linkToken(byDee));
    expect(dead.status, dead.text).toBe(404);
    expect((await world.as("anyone")("POST", `/api/join/${linkToken(byDee)}`, { name: "Ivy", password: "long enough pass" })).status).toBe(404);
    expect(await pendingOf("crew")).toEqual([]);
    world.tokens.ivy = await createUserWithToken(world.databaseUrl, "ivy@example.com");
    expect(await myInvites("ivy")).toEqual([]);
    expect((await answer("ivy", "accept", "crew")).status).toBe(404);
    expect(await roleIn("ivy", "crew")).toBe(404);

    // Ana invites the same email: her invitation, her role, and it can be accepted.
    expect((await invite("ivy@example.com", "member", "ana", "crew")).status).toBe(202);
    expect((await myInvites("ivy")).map((i) => [i.project.slug, i.role, i.invitedBy?.name])).toEqual([["crew", "member", "ana"]]);
    expect((await answer("ivy", "accept", "crew")).status).toBe(200);
    expect(await roleIn("ivy", "crew")).toBe("member");
  });

  it("an owner made member, or disabled, and made owner or enabled again does not bring back what they sent", async () => {
    const idOf = async (who: string) => (await world.sql("SELECT id FROM users WHERE email = ?", [emailOf(who)]))[0]!.id as string;
    const [deeId, cookie] = [await idOf("dee"), await signInCookie(world.server.url, emailOf("ana"), "long enough pass")];
    /** Ana sets dee's role with the form of the project's settings page, as her browser does. */
    const setRole = async (role: string) => {
      const page = await send(world.server.port, "/settings/projects/relay", { headers: { cookie } });
      const form = [...page.body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes(`value="${deeId}"`) && f.includes('name="role"'))!;
      const body = new FormData();
      for (const [name, value] of hiddenFields(form)) body.append(name, value);
      body.set("role", role);
      await (await fetch(`${world.server.url}/settings/projects/relay`, { method: "POST", body, headers: { cookie, origin: world.server.url }, redirect: "manual" })).text();
      expect(await roleIn("dee", "relay")).toBe(role);
    };
    expect((await world.as("ana")("POST", "/api/projects", { slug: "relay", name: "Relay" })).status).toBe(201);
    expect((await invite(emailOf("dee"), "owner", "ana", "relay")).status).toBe(202);
    expect((await answer("dee", "accept", "relay")).status).toBe(200);
    const byDee = await invite("jan@example.com", "owner", "dee", "relay");
    expect((await open(linkToken(byDee))).status).toBe(200);
    await setRole("member");
    expect((await open(linkToken(byDee))).status).toBe(404);
    await setRole("owner");
    // Owner again: what dee sent before stays closed (the link, the owners' list, the trail says so).
    expect((await open(linkToken(byDee))).status).toBe(404);
    expect(await pendingOf("relay")).toEqual([]);
    const relayTrail = (await world.as("ana")("GET", "/api/projects/relay/audit?limit=100")).json.items as { detail: string | null }[];
    expect(relayTrail.map((e) => e.detail)).toContain("role owner → member; 1 pending invitation they sent closed");

    // Disabled and enabled again: the same.
    const byDeeAgain = await invite("kai@example.com", "member", "dee", "relay");
    expect((await open(linkToken(byDeeAgain))).status).toBe(200);
    expect((await world.as("ana")("PATCH", `/api/admin/users/${deeId}`, { disabled: true })).status).toBe(200);
    expect((await world.as("ana")("PATCH", `/api/admin/users/${deeId}`, { disabled: false })).status).toBe(200);
    expect((await open(linkToken(byDeeAgain))).status).toBe(404);
  });
});
