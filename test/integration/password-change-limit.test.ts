import { describe, expect, it } from "vitest";
import { MAX_FAILURES } from "@/lib/auth/sign-in-limiter";
import { signInCookie } from "../support/dashboard-session";
import { hiddenFields, send, submitPageForm } from "../support/page-form";
import { emailOf, testWorld } from "../support/world";

// Whoever holds a signed-in browser (left open, or a stolen cookie) must not learn the account's
// password by guessing it on the change-password form: wrong current passwords count with failed
// sign-ins, under the same per-email limit.

const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {}, tempPrefix: "baton-password-limit-" });
const PASSWORD = "long enough pass";

/** Posts the change-password form of /settings/account (the page has other forms) as a browser without JavaScript. */
async function changePassword(cookie: string, current: string): Promise<string> {
  const page = await send(world.server.port, "/settings/account", { headers: { cookie } });
  expect(page.status).toBe(200);
  const form = [...page.body.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('name="current"'));
  expect(form).toBeDefined();
  const body = new FormData();
  for (const [name, value] of hiddenFields(form!)) body.append(name, value);
  for (const [name, value] of Object.entries({ current, password: "a brand new password", confirm: "a brand new password" })) body.append(name, value);
  const encoded = new Request("http://form.invalid", { method: "POST", body });
  const reply = await send(world.server.port, "/settings/account", {
    method: "POST",
    headers: { cookie, origin: world.server.url, "content-type": encoded.headers.get("content-type")! },
    body: Buffer.from(await encoded.arrayBuffer()),
  });
  return reply.body;
}

describe("the change-password form's current password", () => {
  it("is limited like a sign-in: after the limit even the right one is refused, and sign-in is locked too", async () => {
    const cookie = await signInCookie(world.server.url, emailOf("ana"), PASSWORD);
    for (let i = 0; i < MAX_FAILURES; i++) expect(await changePassword(cookie, `wrong guess ${i}`)).toContain("The current password is wrong.");
    const limited = await changePassword(cookie, PASSWORD);
    expect(limited).toContain("Too many failed password attempts for this email.");
    const { reply } = await submitPageForm(world.server.port, "/sign-in", { email: emailOf("ana"), password: PASSWORD });
    expect(reply.body).toContain("Too many failed password attempts for this email.");
  }, 120_000);
});
