import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, submitPageForm } from "../support/page-form";
import { startServer, type RunningServer } from "../support/server";
import { emailOf, testWorld } from "../support/world";

// The session cookie is Secure exactly when the connection is HTTPS (or BATON_BASE_URL says it is):
// over plain HTTP at a LAN name a browser drops a Secure cookie, and sign-in silently fails.
const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {} });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";
const HTTPS_BASE_URL = "https://baton.example.test";

/** A second instance on the world's database, deployed behind a TLS proxy at HTTPS_BASE_URL. */
let behindProxy: RunningServer;
beforeAll(async () => {
  behindProxy = await startServer({ databaseUrl: world.databaseUrl, env: { BATON_BASE_URL: HTTPS_BASE_URL } });
}, 60_000);
afterAll(() => behindProxy?.stop());

/**
 * Signs ana in through the real sign-in form, posted as a browser without JavaScript posts it, from
 * `origin` (its host sent as Host, and X-Forwarded-Proto as a TLS proxy would set it). Returns the
 * session cookie's Set-Cookie line.
 */
async function signIn(server: RunningServer, origin: string, forwardedProto?: string): Promise<string> {
  const headers: Record<string, string> = { host: new URL(origin).host, origin, ...(forwardedProto ? { "x-forwarded-proto": forwardedProto } : {}) };
  const { page, reply } = await submitPageForm(server.port, "/sign-in", { email: emailOf("ana"), password: PASSWORD }, headers);
  expect(page.status, page.body.slice(0, 500)).toBe(200);
  expect(reply.status, reply.body.slice(0, 500)).toBe(303);
  const cookies = [reply.headers["set-cookie"] ?? []].flat();
  const session = cookies.find((c) => /session_token=/.test(c));
  expect(session, `Set-Cookie: ${cookies.join(" | ")}`).toBeDefined();
  return session!;
}

const attributes = (setCookie: string) => setCookie.split(";").map((part) => part.trim().toLowerCase());

describe("the session cookie on sign-in", () => {
  it("over plain HTTP at a LAN name: not Secure (the browser keeps it), HttpOnly, SameSite=Lax", async () => {
    const cookie = await signIn(world.server, "http://baton.lan:3000");
    expect(cookie).toMatch(/^better-auth\.session_token=/);
    expect(attributes(cookie)).not.toContain("secure");
    expect(attributes(cookie)).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/"]));
  });

  it("over HTTPS through a TLS-terminating proxy (X-Forwarded-Proto: https): Secure, __Secure- prefixed", async () => {
    const cookie = await signIn(world.server, "https://baton.lan", "https");
    expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
    expect(attributes(cookie)).toEqual(expect.arrayContaining(["secure", "httponly", "samesite=lax"]));
  });

  it("with an https BATON_BASE_URL: Secure, whatever the request claims", async () => {
    for (const proto of ["https", "http"]) {
      const cookie = await signIn(behindProxy, HTTPS_BASE_URL, proto);
      expect(cookie).toMatch(/^__Secure-better-auth\.session_token=/);
      expect(attributes(cookie)).toContain("secure");
    }
  });

  it("the cookie each way signs the user in over the same kind of connection", async () => {
    const plain = (await signIn(world.server, "http://baton.lan:3000")).split(";")[0]!;
    const secure = (await signIn(world.server, "https://baton.lan", "https")).split(";")[0]!;
    const projects = (cookie: string, proto: string) =>
      send(world.server.port, "/api/projects", { headers: { host: "baton.lan", cookie, "x-forwarded-proto": proto } });
    expect((await projects(plain, "http")).status).toBe(200);
    expect((await projects(secure, "https")).status).toBe(200);
  });
});
