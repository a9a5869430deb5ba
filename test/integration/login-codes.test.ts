import { describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { loginApproval } from "../support/login-approval";
import { emailOf, testWorld } from "../support/world";

// The `baton login` code pair over its two public routes, and the approval page's limits, without the
// CLI (test/integration/cli-login.test.ts runs it). ana owns alpha; bo is another user.
const world = testWorld({ tempPrefix: "baton-login-codes-", users: ["ana", "bo"], projects: { alpha: "ana" }, members: [], tokens: {} });
const { cookieOf, approvalPage, answer } = loginApproval(world);
const anon = () => apiClient(world.server.url);

describe("the code pair over the API", () => {
  const start = async () => {
    const res = await anon()("POST", "/api/cli/login", { machine: "ana-laptop\u001b[2J" });
    expect(res.status, res.text).toBe(200);
    return res.json as { userCode: string; deviceCode: string; expiresIn: number; interval: number };
  };
  const poll = (deviceCode: string) => anon()("POST", "/api/cli/login/poll", { deviceCode });

  it("only the device code collects the token, for whoever approved it, once; the short code or another's pair get nothing", async () => {
    const ana = await start();
    const bo = await start();
    expect(ana).toMatchObject({ userCode: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/), expiresIn: 600, interval: 2 });
    expect(ana.deviceCode).not.toContain(ana.userCode.replace("-", ""));
    // The machine's name is shown without the control characters it was sent with.
    expect(await approvalPage("ana", ana.userCode)).toContain("<strong>ana-laptop[2J</strong>");

    expect(await answer("ana", ana.userCode, { decision: "approve", name: "via api", scope: "write" })).toContain("Approved.");
    for (const wrong of [ana.userCode, ana.userCode.replace("-", ""), "x".repeat(43)]) {
      const res = await poll(wrong);
      expect(res.status, wrong).toBe(404);
      expect(res.json).toMatchObject({ ok: false, error: { code: "not_found" } });
    }
    // bo's own pair is still waiting: ana's approval is hers alone.
    const waiting = await poll(bo.deviceCode);
    expect(waiting.status).toBe(428);
    expect(waiting.json).toMatchObject({ ok: false, error: { code: "authorization_pending" } });

    const got = await poll(ana.deviceCode);
    expect(got.status, got.text).toBe(200);
    expect(got.json).toMatchObject({ ok: true, user: { email: emailOf("ana") }, tokenInfo: { name: "via api", scope: "write", projects: [] } });
    const me = await apiClient(world.server.url, got.json.token)("GET", "/api/me");
    expect(me.json).toMatchObject({ user: { email: emailOf("ana") }, token: { name: "via api" } });

    const again = await poll(ana.deviceCode);
    expect(again.status).toBe(410);
    expect(again.json).toMatchObject({ ok: false, error: { code: "gone", reason: "used" } });
    expect(again.text).not.toContain("baton_");
  });

  it("an approval is spent only with its token: a poll whose token cannot be made leaves it approved for the next", async () => {
    const pair = await start();
    expect(await answer("bo", pair.userCode, { decision: "approve", name: "bo laptop", scope: "write" })).toContain("Approved.");
    // The token cannot be made now (bo's account disabled between approval and poll) ...
    await world.sql("UPDATE users SET disabled_at = ? WHERE email = ?", [Date.now(), emailOf("bo")]);
    const refused = await poll(pair.deviceCode);
    expect(refused.status, refused.text).toBe(409);
    expect(await world.sql("SELECT status FROM cli_logins WHERE user_code = ?", [pair.userCode.replace("-", "")])).toEqual([{ status: "approved" }]);
    // ... and once it can, the next poll collects it.
    await world.sql("UPDATE users SET disabled_at = NULL WHERE email = ?", [emailOf("bo")]);
    const got = await poll(pair.deviceCode);
    expect(got.status, got.text).toBe(200);
    expect(got.json).toMatchObject({ token: expect.stringMatching(/^baton_/), user: { email: emailOf("bo") } });
    expect((await poll(pair.deviceCode)).status).toBe(410);
  });

  it("polling faster than the interval is told to slow down (429); denied is 403", async () => {
    const pair = await start();
    expect((await poll(pair.deviceCode)).status).toBe(428);
    const fast = await poll(pair.deviceCode);
    expect(fast.status).toBe(429);
    expect(fast.json).toMatchObject({ error: { code: "rate_limited", reason: "slow_down" } });
    expect(await answer("bo", pair.userCode, { decision: "deny" })).toContain("Denied.");
    const denied = await poll(pair.deviceCode);
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ error: { code: "forbidden", reason: "denied" } });
  });

  it("bad input is a 4xx in the error shape", async () => {
    for (const [path, body, status] of [
      ["/api/cli/login/poll", {}, 400],
      ["/api/cli/login/poll", { deviceCode: 7 }, 400],
      ["/api/cli/login", { machine: "x".repeat(500) }, 400],
      ["/api/cli/login", "not json", 400],
    ] as const) {
      const res = await anon()("POST", path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(res.json).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it("GET /api/me needs a token or a session; DELETE /api/me/token needs a token (a session has none to revoke)", async () => {
    expect((await anon()("GET", "/api/me")).status).toBe(401);
    const cookie = await cookieOf("ana");
    const bySession = await fetch(`${world.server.url}/api/me/token`, { method: "DELETE", headers: { cookie, origin: world.server.url } });
    expect(bySession.status).toBe(400);
  });

  it("codes that match nothing are counted per person: past ten, the page stops looking", async () => {
    for (let i = 0; i < 10; i++) expect(await approvalPage("bo", "BBBB-BBBB")).toContain("No sign-in code BBBB-BBBB");
    expect(await approvalPage("bo", "BBBB-BBBB")).toContain("Too many codes that match nothing");
    // ana's count is her own.
    expect(await approvalPage("ana", "BBBB-BBBB")).toContain("No sign-in code BBBB-BBBB");
  });
});

// Last: it uses up this address's codes for the rest of the server's window.
describe("asking for codes is rate-limited per address", () => {
  it("past twenty codes in fifteen minutes: 429 with Retry-After", async () => {
    let refused;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await anon()("POST", "/api/cli/login");
      if (res.status === 429) refused = res;
      else expect(res.status, res.text).toBe(200);
    }
    expect(refused, "refused within 25 requests").toBeDefined();
    expect(refused!.json).toMatchObject({ ok: false, error: { code: "rate_limited" } });
    expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
