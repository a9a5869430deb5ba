import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { submitPageForm } from "../support/page-form";
import { startServer, type RunningServer } from "../support/server";
import { emailOf, testWorld } from "../support/world";

// The address Baton writes into its links, its install script and its cookies' Secure flag: from a
// proxy's forwarding headers (their first entry, where proxies appended theirs) or from BATON_BASE_URL,
// kept in URL's normal form.
const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {}, tempPrefix: "baton-public-address-" });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";
/** As an operator may type it: upper-case scheme and host, a trailing slash. */
const BASE_AS_TYPED = "HTTPS://Localhost:3446/";
const BASE = "https://localhost:3446";

let typedBase: RunningServer;
beforeAll(async () => {
  typedBase = await startServer({ databaseUrl: world.databaseUrl, env: { BATON_BASE_URL: BASE_AS_TYPED } });
}, 60_000);
afterAll(() => typedBase?.stop());

const loginLink = async (server: RunningServer, headers: Record<string, string> = {}) => {
  const res = await fetch(`${server.url}/api/cli/login`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
  expect(res.status).toBe(200);
  return ((await res.json()) as { verificationUrl: string }).verificationUrl;
};

describe("behind proxies that each append to X-Forwarded-Host (Apache's mod_proxy)", () => {
  const APPENDED = { "x-forwarded-host": "baton.example.com, internal:3440", "x-forwarded-proto": "https, http" };

  it("links and the install script name the first host, the browser's", async () => {
    expect(await loginLink(world.server, APPENDED)).toBe("https://baton.example.com/connect/device");
    const script = await fetch(`${world.server.url}/install.sh`, { headers: APPENDED });
    expect(script.status).toBe(200);
    expect(await script.text()).toContain(`\nurl='https://baton.example.com'\n`);
  });

  it("a form posted from that first host is this server's own, and signs in", async () => {
    const headers = { ...APPENDED, host: `127.0.0.1:${world.server.port}`, origin: "https://baton.example.com" };
    const { reply } = await submitPageForm(world.server.port, "/sign-in", { email: emailOf("ana"), password: PASSWORD }, headers);
    expect(reply.status, reply.body.slice(0, 300)).toBe(303);
  });
});

describe("BATON_BASE_URL as typed, HTTPS://Localhost:3446/", () => {
  it("links, the install script and the API name its normal form", async () => {
    expect(await loginLink(typedBase)).toBe(`${BASE}/connect/device`);
    const script = await fetch(`${typedBase.url}/install.sh`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain(`\nurl='${BASE}'\n`);
    expect((await apiClient(typedBase.url)("GET", "/api/health")).status).toBe(200);
  });

  it("sign-in works and its cookie is Secure", async () => {
    const headers = { host: `127.0.0.1:${typedBase.port}`, origin: BASE };
    const { page, reply } = await submitPageForm(typedBase.port, "/sign-in", { email: emailOf("ana"), password: PASSWORD }, headers);
    expect(page.status, page.body.slice(0, 300)).toBe(200);
    expect(reply.status, reply.body.slice(0, 300)).toBe(303);
    const session = [reply.headers["set-cookie"] ?? []].flat().find((c) => /session_token=/.test(c));
    expect(session).toMatch(/^__Secure-better-auth\.session_token=.*;\s*Secure/i);
  });
});
