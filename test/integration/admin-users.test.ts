import { afterAll, describe, expect, it } from "vitest";
import { MAX_FAILURES } from "@/lib/auth/sign-in-limiter";
import { waitFor } from "../fixtures/cli/cli-env";
import { apiClient } from "../support/api";
import { signInCookie } from "../support/dashboard-session";
import { loginApproval } from "../support/login-approval";
import { hiddenFields, send, submitPageForm } from "../support/page-form";
import { startSmtpDouble } from "../support/smtp-double";
import { emailOf, testWorld } from "../support/world";

// Admins (issue 24) over the real server: the first account is the admin; to anyone else every admin
// route and action is the 404 of a route that does not exist; an admin lists users, promotes and
// demotes (never the last active admin), disables (tokens 401 at once, sessions ended, sign-in refused
// as a wrong password is, `baton login` codes denied, nothing written deleted), enables, and makes
// one-time password reset links (mailed through a local SMTP double) that every dead link answers alike.
// ana (the first account) owns web, bo is a member; cy, dee and eve have accounts.

const smtp = await startSmtpDouble();
afterAll(() => smtp.stop());

const world = testWorld({
  users: ["ana", "bo", "cy", "dee", "eve"],
  projects: { web: "ana" },
  members: [{ project: "web", user: "bo", role: "member" }],
  tokens: { anaWebOnly: { user: "ana", projects: ["web"] } },
  env: { BATON_SMTP_URL: smtp.url("mailer", "s3cret"), BATON_SMTP_FROM: "Baton <baton@example.com>" },
  tempPrefix: "baton-admin-users-",
});

const PASSWORD = "long enough pass";
type UserOut = { id: string; name: string; email: string; role: string; disabled: boolean; lastActiveAt: string | null; projects: { slug: string; role: string }[] };

const users = async (who = "ana"): Promise<UserOut[]> => {
  const res = await world.as(who)("GET", "/api/admin/users");
  expect(res.status, res.text).toBe(200);
  return res.json.items as UserOut[];
};
const idOf = async (user: string) => (await world.sql("SELECT id FROM users WHERE email = ?", [emailOf(user)]))[0]!.id as string;
const patch = async (who: string, user: string, body: unknown) => world.as(who)("PATCH", `/api/admin/users/${await idOf(user)}`, body);
const resetLink = async (user: string) => {
  const res = await world.as("ana")("POST", `/api/admin/users/${await idOf(user)}/reset-link`);
  expect(res.status, res.text).toBe(200);
  return res.json.reset as { email: string; link: string; mailed: boolean };
};
const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);
const openReset = (token: string) => world.as("nobody")("GET", `/api/reset/${encodeURIComponent(token)}`);
const spendReset = (token: string, password: string) => world.as("nobody")("POST", `/api/reset/${encodeURIComponent(token)}`, { password });
/** The sign-in page's answer to a form posted as a browser without JavaScript posts it. */
const signInAnswer = async (user: string, password: string) => {
  const { reply } = await submitPageForm(world.server.port, "/sign-in", { email: emailOf(user), password });
  const cookie = ([reply.headers["set-cookie"] ?? []].flat() as string[]).find((c) => c.includes("better-auth.session_token=") && !c.includes("Max-Age=0"));
  return { signedIn: cookie !== undefined, wrong: reply.body.includes("Wrong email or password.") };
};
/** A request signed in with a session cookie (a write from the site's own origin, as its pages send). */
const asCookie = (cookie: string, method: string, path: string, body?: unknown) =>
  apiClient(world.server.url)(method, path, body, { cookie, ...(method === "GET" ? {} : { origin: world.server.url }) });

describe("who is an admin", () => {
  it("the first account is the admin; the others are members", async () => {
    const roles = Object.fromEntries((await users()).map((u) => [u.email, u.role]));
    expect(roles).toEqual({ [emailOf("ana")]: "admin", [emailOf("bo")]: "member", [emailOf("cy")]: "member", [emailOf("dee")]: "member", [emailOf("eve")]: "member" });
  });

  it("a member gets the 404 of a route that does not exist on every admin route, with a token or signed in", async () => {
    const missing = await world.as("bo")("GET", "/api/no-such-thing");
    expect(missing.status).toBe(404);
    const cyId = await idOf("cy");
    const cookie = await signInCookie(world.server.url, emailOf("bo"), PASSWORD);
    const attempts = [
      () => world.as("bo")("GET", "/api/admin/users"),
      () => world.as("bo")("PATCH", `/api/admin/users/${cyId}`, { disabled: true }),
      () => world.as("bo")("PATCH", `/api/admin/users/${cyId}`, { role: "admin" }),
      () => world.as("bo")("PATCH", `/api/admin/users/${cyId}`, { nonsense: 1 }),
      () => world.as("bo")("POST", `/api/admin/users/${cyId}/reset-link`),
      () => asCookie(cookie, "GET", "/api/admin/users"),
      () => asCookie(cookie, "PATCH", `/api/admin/users/${cyId}`, { disabled: true }),
      () => asCookie(cookie, "POST", `/api/admin/users/${cyId}/reset-link`),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status, res.text).toBe(404);
      expect(res.json).toEqual(missing.json);
    }
    // The page too: the dashboard's 404, and no link to it in the nav.
    const page = await fetch(`${world.server.url}/admin`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(404);
    const home = await (await fetch(world.server.url, { headers: { cookie } })).text();
    expect(home).not.toContain('href="/admin"');
    expect((await world.sql("SELECT disabled_at, role FROM users WHERE id = ?", [cyId]))[0]).toMatchObject({ disabled_at: null, role: "member" });
  });

  it("an admin's token limited to some projects manages no account: 403 on every admin route", async () => {
    const boId = await idOf("bo");
    const attempts = [
      () => world.as("anaWebOnly")("GET", "/api/admin/users"),
      () => world.as("anaWebOnly")("PATCH", `/api/admin/users/${boId}`, { role: "admin" }),
      () => world.as("anaWebOnly")("PATCH", `/api/admin/users/${boId}`, { disabled: true }),
      () => world.as("anaWebOnly")("POST", `/api/admin/users/${boId}/reset-link`),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.message).toMatch(/limited to some projects/);
    }
    expect((await world.sql("SELECT disabled_at, role FROM users WHERE id = ?", [boId]))[0]).toMatchObject({ disabled_at: null, role: "member" });
    expect(await world.sql("SELECT count(*) AS n FROM password_resets", [])).toEqual([{ n: 0 }]);
  });

  it("a member posting the admin page's actions (read from an admin's page) is refused on the server", async () => {
    const anaCookie = await signInCookie(world.server.url, emailOf("ana"), PASSWORD);
    const boCookie = await signInCookie(world.server.url, emailOf("bo"), PASSWORD);
    const page = await send(world.server.port, "/admin", { headers: { cookie: anaCookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('href="/admin"');
    const cyId = await idOf("cy");
    // Each form of cy's row: Make admin, Disable, Reset link.
    const forms = [...page.body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).filter((f) => f.includes(`value="${cyId}"`));
    expect(forms.length).toBe(3);
    for (const form of forms) {
      const body = new FormData();
      for (const [name, value] of hiddenFields(form)) body.append(name, value);
      const res = await fetch(`${world.server.url}/admin`, { method: "POST", body, headers: { cookie: boCookie, origin: world.server.url }, redirect: "manual" });
      await res.text();
    }
    expect((await world.sql("SELECT disabled_at, role FROM users WHERE id = ?", [cyId]))[0]).toMatchObject({ disabled_at: null, role: "member" });
    expect(await world.sql("SELECT * FROM password_resets")).toEqual([]);
    // The same post as the admin does what the form says: the refusal above was the role's.
    const resetForm = forms.find((f) => f.includes("Reset link"))!;
    const body = new FormData();
    for (const [name, value] of hiddenFields(resetForm)) body.append(name, value);
    const res = await fetch(`${world.server.url}/admin`, { method: "POST", body, headers: { cookie: anaCookie, origin: world.server.url }, redirect: "manual" });
    expect(await res.text()).toContain("/reset/reset_");
    expect(await world.sql("SELECT user_id FROM password_resets")).toEqual([expect.objectContaining({ user_id: cyId })]);
  });

  it("lists every user with role, last activity, projects and status; no secret leaves", async () => {
    // A token used is activity (recorded to the minute, written about a second later).
    expect((await world.as("bo")("GET", "/api/me")).status).toBe(200);
    const list = await waitFor("bo's last activity written", async () => {
      const listed = await users();
      return listed.find((u) => u.email === emailOf("bo"))?.lastActiveAt ? listed : null;
    });
    const bo = list.find((u) => u.email === emailOf("bo"))!;
    expect(bo).toMatchObject({ name: "bo", role: "member", disabled: false, projects: [{ slug: "web", name: "WEB", role: "member" }] });
    expect(bo.lastActiveAt).not.toBeNull();
    expect(list.find((u) => u.email === emailOf("ana"))!.projects).toEqual([{ slug: "web", name: "WEB", role: "owner" }]);
    expect(Object.keys(bo).sort()).toEqual(["createdAt", "disabled", "disabledAt", "email", "id", "lastActiveAt", "name", "projects", "role"]);
    expect((await world.as("ana")("GET", "/api/admin/users?page=2")).json).toMatchObject({ items: [], page: 2, pages: 1, total: 5 });
    expect((await world.as("ana")("GET", "/api/admin/users?page=0")).status).toBe(400);
  });
});

describe("promoting and demoting", () => {
  it("an admin promotes and demotes, never the last active admin", async () => {
    expect((await patch("ana", "ana", { role: "member" })).status).toBe(409);
    expect((await patch("ana", "cy", { role: "admin" })).status).toBe(200);
    // cy is an admin now: cy demotes ana, then cannot demote cy, the last one.
    expect((await world.as("cy")("GET", "/api/admin/users")).status).toBe(200);
    expect((await patch("cy", "ana", { role: "member" })).status).toBe(200);
    expect((await world.as("ana")("GET", "/api/admin/users")).status).toBe(404);
    const last = await patch("cy", "cy", { role: "member" });
    expect(last.status).toBe(409);
    expect(last.json.error.message).toContain("last active admin");
    expect((await patch("cy", "ana", { role: "admin" })).status).toBe(200);
    expect((await patch("ana", "cy", { role: "member" })).status).toBe(200);
    const audit = await world.sql("SELECT actor_email, subject_label, detail FROM audit_log WHERE subject_kind = 'user' AND detail LIKE 'role %' ORDER BY id");
    expect(audit.map((r) => [r.actor_email, r.subject_label, r.detail])).toEqual([
      [emailOf("ana"), emailOf("cy"), "role admin"],
      [emailOf("cy"), emailOf("ana"), "role member"],
      [emailOf("cy"), emailOf("ana"), "role admin"],
      [emailOf("ana"), emailOf("cy"), "role member"],
    ]);
  });

  it("an admin cannot disable themself, nor a user that does not exist", async () => {
    expect((await patch("ana", "ana", { disabled: true })).status).toBe(409);
    expect((await world.as("ana")("PATCH", "/api/admin/users/nobody", { disabled: true })).status).toBe(404);
    expect((await patch("ana", "bo", { role: "owner" })).status).toBe(400);
  });
});

describe("disabling a user", () => {
  it("stops their token at the next request, ends their sessions, refuses their sign-in as a wrong password, keeps what they wrote", async () => {
    const learning = await world.as("bo")("POST", "/api/learnings", { project: "web", kind: "insight", content: "The staging database resets every night at 02:00 UTC." });
    expect(learning.status, learning.text).toBe(201);
    const cookie = await signInCookie(world.server.url, emailOf("bo"), PASSWORD);
    expect((await asCookie(cookie, "GET", "/api/me")).status).toBe(200);
    expect((await world.as("bo")("GET", "/api/me")).status).toBe(200);

    const disabled = await patch("ana", "bo", { disabled: true });
    expect(disabled.status, disabled.text).toBe(200);

    expect((await world.as("bo")("GET", "/api/me")).status).toBe(401);
    expect((await world.as("bo")("GET", "/api/context?project=web")).status).toBe(401);
    expect((await asCookie(cookie, "GET", "/api/me")).status).toBe(401);
    expect(await signInAnswer("bo", PASSWORD)).toEqual({ signedIn: false, wrong: true });
    expect(await signInAnswer("bo", "not the password")).toEqual({ signedIn: false, wrong: true });
    expect((await world.sql("SELECT count(*) AS n FROM learnings WHERE user_id = ?", [await idOf("bo")]))[0]!.n).toBe(1);
    expect((await world.sql("SELECT count(*) AS n FROM project_members WHERE user_id = ?", [await idOf("bo")]))[0]!.n).toBe(1);
    expect((await users()).find((u) => u.email === emailOf("bo"))).toMatchObject({ disabled: true });
    expect(await world.sql("SELECT detail FROM audit_log WHERE subject_kind = 'user' AND subject_label = ? AND detail LIKE 'disabled%'", [emailOf("bo")])).toHaveLength(1);
  });

  it("enabling restores sign-in; the old tokens stay revoked", async () => {
    expect((await patch("ana", "bo", { disabled: false })).status).toBe(200);
    expect(await signInAnswer("bo", PASSWORD)).toEqual({ signedIn: true, wrong: false });
    expect((await world.as("bo")("GET", "/api/me")).status).toBe(401);
  });

  it("a `baton login` approved and not yet collected is denied once its user is disabled", async () => {
    const started = await world.as("nobody")("POST", "/api/cli/login", { machine: "laptop" });
    expect(started.status, started.text).toBe(200);
    const approval = loginApproval(world);
    await approval.answer("dee", started.json.userCode, { decision: "approve", name: "laptop", scope: "write" });
    expect((await patch("ana", "dee", { disabled: true })).status).toBe(200);
    const poll = await world.as("nobody")("POST", "/api/cli/login/poll", { deviceCode: started.json.deviceCode });
    expect(poll.status, poll.text).toBe(403);
    expect(await world.sql("SELECT count(*) AS n FROM api_tokens WHERE user_id = ?", [await idOf("dee")])).toEqual([expect.objectContaining({ n: 0 })]);
  });
});

describe("password reset links", () => {
  const DEAD = "This password reset link cannot be used";

  it("an admin's link is mailed, sets a new password once and signs the account out everywhere", async () => {
    const cookie = await signInCookie(world.server.url, emailOf("eve"), PASSWORD);
    const reset = await resetLink("eve");
    expect(reset).toMatchObject({ email: emailOf("eve"), mailed: true });
    expect(reset.link).toMatch(new RegExp(`^${world.server.url}/reset/reset_[A-Za-z0-9_-]{43}$`));
    const mail = await smtp.waitForMail(emailOf("eve"));
    expect(mail.data.replace(/=\r\n/g, "")).toContain(tokenOf(reset.link));
    const stored = await world.sql("SELECT link_hash FROM password_resets");
    expect(JSON.stringify(stored)).not.toContain(tokenOf(reset.link));

    const token = tokenOf(reset.link);
    expect((await openReset(token)).json).toMatchObject({ ok: true, user: { email: emailOf("eve") } });
    expect((await spendReset(token, "short")).status).toBe(400);
    expect((await spendReset(token, "a brand new password")).status).toBe(200);

    expect((await asCookie(cookie, "GET", "/api/me")).status).toBe(401);
    expect(await signInAnswer("eve", PASSWORD)).toEqual({ signedIn: false, wrong: true });
    expect(await signInAnswer("eve", "a brand new password")).toEqual({ signedIn: true, wrong: false });
    // Used: dead.
    expect((await spendReset(token, "another new password")).status).toBe(404);
  });

  it("a reset link also unlocks an email that failed sign-ins locked", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) expect(await signInAnswer("eve", `wrong ${i}`)).toEqual({ signedIn: false, wrong: true });
    // Locked: even the right password is refused now.
    expect(await signInAnswer("eve", "a brand new password")).toEqual({ signedIn: false, wrong: false });
    expect((await spendReset(tokenOf((await resetLink("eve")).link), "the third password")).status).toBe(200);
    expect(await signInAnswer("eve", "the third password")).toEqual({ signedIn: true, wrong: false });
  });

  it("every dead link (unknown, used, replaced, expired, of a disabled account) gets the same answer", async () => {
    const used = tokenOf((await resetLink("cy")).link);
    expect((await spendReset(used, "cy's new password")).status).toBe(200);
    const replaced = tokenOf((await resetLink("cy")).link);
    const live = tokenOf((await resetLink("cy")).link);
    const expired = tokenOf((await resetLink("eve")).link);
    await world.sql("UPDATE password_resets SET expires_at = ? WHERE user_id = ?", [Date.now() - 1000, await idOf("eve")]);
    const ofDisabled = tokenOf((await resetLink("bo")).link);
    expect((await patch("ana", "bo", { disabled: true })).status).toBe(200);

    const answers = [];
    for (const token of ["reset_unknown", "join_notareset", "x".repeat(500), used, replaced, expired, ofDisabled]) {
      for (const res of [await openReset(token), await spendReset(token, "whatever password")]) {
        expect(res.status, token).toBe(404);
        answers.push(res.text);
      }
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain(DEAD);
    // The reset page says the same.
    const page = await (await fetch(`${world.server.url}/reset/${replaced}`)).text();
    expect(page).toContain(DEAD);
    expect((await openReset(live)).status).toBe(200);
    // A disabled account gets no link.
    expect((await world.as("ana")("POST", `/api/admin/users/${await idOf("bo")}/reset-link`)).status).toBe(409);
  });
});
