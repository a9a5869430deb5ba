import { describe, expect, it } from "vitest";
import { submitPageForm } from "../support/page-form";
import { emailOf, testWorld } from "../support/world";

// Behind a proxy that rewrites Host (nginx's default proxy_pass), the browser's forms carry
// BATON_BASE_URL's origin while the request names 127.0.0.1: the dashboard's forms still work there,
// and a form another site posts is refused with a page in Baton's look, never a bare 500.

const BASE = "https://baton.example.test";
const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {}, env: { BATON_BASE_URL: BASE }, tempPrefix: "baton-proxy-origin-" });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";

describe("dashboard forms behind a proxy that rewrites Host", () => {
  it("sign-in from BATON_BASE_URL's origin signs in (Host is the proxy's upstream address)", async () => {
    const headers = { host: `127.0.0.1:${world.server.port}`, "x-forwarded-proto": "https", origin: BASE };
    const { reply } = await submitPageForm(world.server.port, "/sign-in", { email: emailOf("ana"), password: PASSWORD }, headers);
    expect(reply.status, reply.body.slice(0, 300)).toBe(303);
    expect(String(reply.headers["set-cookie"])).toContain("session_token=");
  });

  it("a form posted from another site is a styled 403 page, and signs nobody in", async () => {
    const headers = { host: `127.0.0.1:${world.server.port}`, origin: "https://evil.example" };
    const { reply } = await submitPageForm(world.server.port, "/sign-in", { email: emailOf("ana"), password: PASSWORD }, headers);
    expect(reply.status).toBe(403);
    expect(reply.body).toContain("sent from another site");
    expect(reply.body).toContain("Baton");
    expect(reply.headers["set-cookie"]).toBeUndefined();
  });
});
