import { describe, expect, it } from "vitest";
import { submitPageForm } from "../support/page-form";
import type { RunningServer } from "../support/server";
import { emailOf, testWorld } from "../support/world";

// The address Baton writes into its links and its install script: from a proxy's forwarding headers
// (their first entry, where proxies appended theirs).
const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {}, tempPrefix: "baton-public-address-" });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";

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
