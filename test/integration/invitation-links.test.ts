import { afterAll, describe, expect, it } from "vitest";
import { signInCookie } from "../support/dashboard-session";
import { startSmtpDouble } from "../support/smtp-double";
import { emailOf, testWorld } from "../support/world";

// Invitation links (issue 24) over the real server, mailing through a local SMTP double: an owner's
// invitation comes with a link (shown once, mailed to the invitee); whoever holds it sees the
// invitation; a person without an account creates one there and is a member at once; the invited
// account accepts; every dead link (unknown, expired, replaced, revoked, used) gets the same 404.
// ana owns web (bo a member); cy and eve have accounts and no projects.

const smtp = await startSmtpDouble();
afterAll(() => smtp.stop());

const world = testWorld({
  users: ["ana", "bo", "cy", "eve"],
  projects: { web: "ana" },
  members: [{ project: "web", user: "bo", role: "member" }],
  tokens: {},
  env: { BATON_SMTP_URL: smtp.url("mailer", "s3cret"), BATON_SMTP_FROM: "Baton <baton@example.com>" },
  tempPrefix: "baton-invitation-links-",
});

const invite = async (email: string, role = "member") => {
  const res = await world.as("ana")("POST", "/api/projects/web/invitations", { email, role });
  expect(res.status, res.text).toBe(202);
  return res.json.invitation as { email: string; role: string; link: string; mailed: boolean };
};
const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);
const open = (token: string) => world.as("nobody")("GET", `/api/join/${encodeURIComponent(token)}`);
const join = (token: string, body: unknown) => world.as("nobody")("POST", `/api/join/${encodeURIComponent(token)}`, body);
const pending = async () => {
  const res = await world.as("ana")("GET", "/api/projects/web/invitations");
  expect(res.status, res.text).toBe(200);
  return res.json.items as { id: string; email: string; mailState: string | null; linkExpiresAt: string; linkLive: boolean }[];
};
const pendingOf = async (email: string) => (await pending()).find((i) => i.email === email)!;
/** Waits for the mail sent after the response to settle on the invitation. */
const mailStateOf = async (email: string) => {
  for (let i = 0; i < 100; i++) {
    const state = (await pendingOf(email)).mailState;
    if (state !== "sending") return state;
    await new Promise((r) => setTimeout(r, 100));
  }
  return "sending";
};
/** The text of a mail as the double got it (nodemailer may use quoted-printable for long lines). */
const bodyOf = (raw: string) => raw.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const DEAD = "This invitation link cannot be used";

describe("invitation links", () => {
  it("an invitation comes with a link, shown to the owner and mailed to the invitee", async () => {
    const invitation = await invite("newbie@example.com", "viewer");
    expect(invitation).toMatchObject({ email: "newbie@example.com", role: "viewer", mailed: true });
    expect(invitation.link).toMatch(new RegExp(`^${world.server.url}/join/join_[A-Za-z0-9_-]{43}$`));

    const mail = await smtp.waitForMail("newbie@example.com");
    expect(mail.from).toBe("baton@example.com");
    expect(mail.auth).toBe("mailer:s3cret");
    const text = bodyOf(mail.data);
    expect(text).toContain(invitation.link);
    expect(text).toMatch(/^Subject: ana invited you to WEB on Baton$/m);
    expect(text).toContain('invited you to join the project "WEB" on Baton as viewer');
    expect(await mailStateOf("newbie@example.com")).toBe("sent");
    const listed = await pendingOf("newbie@example.com");
    expect(listed.linkLive).toBe(true);
    expect(Date.parse(listed.linkExpiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    // Only the hash is kept.
    const rows = await world.sql("SELECT link_hash FROM project_invitations WHERE email = 'newbie@example.com'");
    expect(rows[0]!.link_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(tokenOf(invitation.link));
  });

  it("the link opens the invitation to anyone holding it, without signing in", async () => {
    const token = tokenOf((await invite("opener@example.com", "member")).link);
    const res = await open(token);
    expect(res.status, res.text).toBe(200);
    expect(res.json.invitation).toEqual({ project: { slug: "web", name: "WEB" }, email: "opener@example.com", role: "member", invitedBy: { name: "ana", email: emailOf("ana") } });
  });

  it("a person without an account creates one with their own name and password, and is a member with the invited role", async () => {
    const token = tokenOf((await invite("NewPerson@Example.com", "viewer")).link);
    // Their own account: a short password is refused, and nothing is used up.
    expect((await join(token, { name: "Nia", password: "short" })).status).toBe(400);
    const joined = await join(token, { name: "Nia", password: "a long passphrase", email: "someone-else@example.com" });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.json).toEqual({ ok: true, user: { email: "newperson@example.com", name: "Nia" }, project: { slug: "web", name: "WEB", role: "viewer" } });

    const cookie = await signInCookie(world.server.url, "newperson@example.com", "a long passphrase");
    const project = await world.as("nobody")("GET", "/api/projects/web", undefined, { cookie });
    expect(project.status, project.text).toBe(200);
    expect(project.json.project.role).toBe("viewer");
    expect((await pending()).map((i) => i.email)).not.toContain("newperson@example.com");
    // Single use.
    expect((await open(token)).status).toBe(404);
    expect((await join(token, { name: "Again", password: "another passphrase" })).status).toBe(404);
  });

  it("two links for one email used at once make one account: the other is told to sign in (409), never a 500", async () => {
    const made = await world.as("ana")("POST", "/api/projects", { slug: "docs", name: "Docs" });
    expect(made.status, made.text).toBe(201);
    const inviteTo = async (slug: string) => {
      const res = await world.as("ana")("POST", `/api/projects/${slug}/invitations`, { email: "twice@example.com", role: "member" });
      expect(res.status, res.text).toBe(202);
      return tokenOf(res.json.invitation.link as string);
    };
    const tokens = [await inviteTo("web"), await inviteTo("docs")];
    // Many rounds would need many emails; the scrypt hash before the transaction makes the window wide.
    const answers = await Promise.all(tokens.map((t, i) => join(t, { name: `Twice ${i}`, password: "a long passphrase" })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.json.error.code).toBe("conflict");
    // The loser's invitation was not used up: signed in, that account can still accept it.
    const lost = tokens[answers.findIndex((a) => a.status === 409)]!;
    expect((await open(lost)).status).toBe(200);
  });

  it("the invited account accepts with the link; another account is told whom it is for", async () => {
    const token = tokenOf((await invite(emailOf("cy"), "viewer")).link);
    const other = await world.as("eve")("POST", `/api/join/${token}/accept`);
    expect(other.status, other.text).toBe(403);
    expect(other.json.error.message).toContain(`This invitation is for ${emailOf("cy")}`);
    // An account exists for that email: it signs in and accepts, no second account.
    const taken = await join(token, { name: "Not Cy", password: "a long passphrase" });
    expect(taken.status, taken.text).toBe(409);

    const accepted = await world.as("cy")("POST", `/api/join/${token}/accept`);
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.project).toEqual({ slug: "web", name: "WEB", role: "viewer" });
    expect((await world.as("cy")("GET", "/api/projects/web")).json.project.role).toBe("viewer");
    expect((await world.as("cy")("POST", `/api/join/${token}/accept`)).status).toBe(404);
  });

  it("refuses every dead link with the same answer: unknown, malformed, expired, replaced, revoked, used", async () => {
    const expired = tokenOf((await invite("expired@example.com")).link);
    await world.sql("UPDATE project_invitations SET link_expires_at = ? WHERE email = 'expired@example.com'", [Date.now() - 1000]);
    expect((await pendingOf("expired@example.com")).linkLive).toBe(false);

    const replaced = tokenOf((await invite("replaced@example.com")).link);
    const renewed = await world.as("ana")("POST", `/api/projects/web/invitations/${(await pendingOf("replaced@example.com")).id}/link`);
    expect(renewed.status, renewed.text).toBe(200);
    const fresh = tokenOf(renewed.json.invitation.link);
    expect(fresh).not.toBe(replaced);
    expect((await open(fresh)).status).toBe(200);

    const revoked = tokenOf((await invite("revoked@example.com")).link);
    expect((await world.as("ana")("DELETE", `/api/projects/web/invitations/${(await pendingOf("revoked@example.com")).id}`)).status).toBe(200);

    const used = tokenOf((await invite("used@example.com")).link);
    expect((await join(used, { name: "Used", password: "a long passphrase" })).status).toBe(201);

    // A member invited again gets a link like anyone's, which leads nowhere.
    const member = tokenOf((await invite(emailOf("bo"))).link);

    const answers = [];
    for (const token of ["join_" + "A".repeat(43), "nonsense", "x".repeat(300), expired, replaced, revoked, used, member]) {
      for (const res of [await open(token), await join(token, { name: "X", password: "a long passphrase" }), await world.as("eve")("POST", `/api/join/${encodeURIComponent(token)}/accept`)]) {
        expect(res.status, `${token}: ${res.text}`).toBe(404);
        answers.push(res.text);
      }
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!)).toMatchObject({ ok: false, error: { code: "not_found", message: expect.stringContaining(DEAD) } });
    expect((await world.as("bo")("GET", "/api/projects/web")).json.project.role).toBe("member");
  });

  it("a mail the server refuses is logged and shown to the owners as not mailed", async () => {
    const invitation = await invite("refused@example.com");
    expect(invitation.mailed).toBe(true);
    expect(await mailStateOf("refused@example.com")).toBe("failed");
    expect((await open(tokenOf(invitation.link))).status).toBe(200);
  });

  it.each([
    ["a member makes a new link", () => world.as("bo")("POST", "/api/projects/web/invitations/whatever/link"), 403],
    ["an outsider makes a new link", () => world.as("eve")("POST", "/api/projects/web/invitations/whatever/link"), 404],
    ["a new link for no pending invitation", () => world.as("ana")("POST", "/api/projects/web/invitations/whatever/link"), 404],
    ["accepting by link without signing in", () => world.as("nobody")("POST", "/api/join/join_x/accept"), 401],
    ["joining without a password", () => join("join_x", { name: "X" }), 400],
    ["joining with a body that is not JSON", () => world.as("nobody")("POST", "/api/join/join_x", "name=x", { "content-type": "text/plain" }), 415],
  ])("refuses: %s", async (_what, request, status) => {
    const res = await request();
    expect(res.status, res.text).toBe(status);
    expect(res.json).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
  });
});
