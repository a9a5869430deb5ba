import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { signInCookie } from "../support/dashboard-session";
import { send } from "../support/page-form";
import { callAction } from "../support/server-action";
import { startServer, type RunningServer } from "../support/server";
import { startSqld, type Sqld } from "../support/sqld";

// The dashboard with its database out of reach (a libSQL server down): every page, the sign-in page
// too, is a 503 page in Baton's look with Retry-After, as the API answers, rather than Next.js's bare
// error page (which needs JavaScript to say anything); once the database is back, pages are too.

const SECRET = "x".repeat(40);
const PASSWORD = "long enough pass";
let sqld: Sqld;
let server: RunningServer;
let cookie: string;

beforeAll(async () => {
  sqld = await startSqld();
  server = await startServer({ databaseUrl: sqld.url, env: { BATON_SECRET: SECRET } });
  const made = await runCli(["admin", "create-user", "--email", "ana@example.com", "--password", PASSWORD], { env: { DATABASE_URL: sqld.url, BATON_SECRET: SECRET } });
  expect(made.code, made.stderr).toBe(0);
  cookie = await signInCookie(server.url, "ana@example.com", PASSWORD);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await sqld?.stop();
});

/** The signed-in dashboard answers again once the database is back (every instance recovers by itself). */
const dashboardBack = () => expect.poll(async () => (await send(server.port, "/", { headers: { cookie } })).status, { timeout: 30_000, interval: 500 }).toBe(200);

describe("pages while the database is down", () => {
  it("the dashboard and sign-in pages say the database is out of reach, then serve again once it is back", async () => {
    expect((await send(server.port, "/", { headers: { cookie } })).status).toBe(200);
    await sqld.kill();
    // The first page to fail marks the outage (Next.js can only answer it with its bare 500 shell) ...
    expect((await send(server.port, "/", { headers: { cookie } })).status).toBeGreaterThanOrEqual(500);
    // ... and from then on every page is the proxy's 503 page, readable without JavaScript.
    for (const [path, headers] of [["/", { cookie }], ["/learnings", { cookie }], ["/sign-in", {}], ["/join/join_x", {}]] as const) {
      const page = await send(server.port, path, { headers });
      expect(page.status, `${path}: ${page.body.slice(0, 200)}`).toBe(503);
      expect(Number(page.headers["retry-after"]), path).toBeGreaterThan(0);
      expect(page.body, path).toContain("Not available right now");
      expect(page.body, path).toContain("cannot reach its database");
    }
    // Static files and the CLI download need no database.
    expect((await send(server.port, "/install.sh")).status).toBe(200);
    await sqld.restart();
    await dashboardBack();
  }, 90_000);

  it("a sign-out while the database is down says so and ends nothing; once it is back, it ends the session on the server", async () => {
    expect((await send(server.port, "/", { headers: { cookie } })).status).toBe(200);
    await sqld.kill();
    const refused = await callAction(server.url, { name: "signOutAction", page: "/", body: "[]", cookie });
    // Not the redirect to the sign-in page a sign-out answers: nothing was signed out.
    expect(refused.status, refused.text.slice(0, 300)).toBeGreaterThanOrEqual(500);
    await sqld.restart();
    // The session is still valid: nothing claimed it was ended.
    await dashboardBack();
    const signedOut = await callAction(server.url, { name: "signOutAction", page: "/", body: "[]", cookie });
    expect(signedOut.status).toBeLessThan(400);
    // A copy of the cookie no longer opens the dashboard.
    expect((await send(server.port, "/", { headers: { cookie } })).status).not.toBe(200);
  }, 90_000);
});
