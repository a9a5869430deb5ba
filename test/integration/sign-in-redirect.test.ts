import { describe, expect, it } from "vitest";
import { submitPageForm } from "../support/page-form";
import { emailOf, testWorld } from "../support/world";

// After signing in, the browser goes back to `next`, and only ever on this server's origin: every
// value a browser would resolve to another host (backslashes, tabs, dot segments, absolute URLs,
// scripts) goes to "/" instead (finding 2 of issue 21).

const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {}, tempPrefix: "baton-redirect-" });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";

/** Signs ana in from /sign-in?next=<next> as a browser without JavaScript does; answers the Location. */
async function signInWithNext(next: string): Promise<string> {
  const { reply } = await submitPageForm(world.server.port, `/sign-in?next=${encodeURIComponent(next)}`, { email: emailOf("ana"), password: PASSWORD });
  expect(reply.status, reply.body.slice(0, 300)).toBe(303);
  return String(reply.headers.location);
}

describe("where sign-in sends the browser", () => {
  it.each([
    "/\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "//evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "\\/evil.example",
    " //evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "/%5Cevil.example",
    "/%09/evil.example",
    "https://evil.example/",
    "http:\\\\evil.example",
    "HTTPS://evil.example",
    "javascript:alert(document.cookie)",
    "data:text/html,<script>alert(1)</script>",
  ])("next=%j stays on the server's origin", async (next) => {
    const location = await signInWithNext(next);
    expect(new URL(location, world.server.url).origin).toBe(world.server.url);
    expect(location).not.toMatch(/^[\s/\\]{2}/);
  });

  it.each([
    ["/learnings?kind=pattern#top", "/learnings?kind=pattern#top"],
    ["/projects/alpha/handoffs", "/projects/alpha/handoffs"],
    ["", "/"],
  ])("next=%j → %s", async (next, path) => {
    expect(await signInWithNext(next)).toBe(path);
  });
});
