import { describe, expect, it } from "vitest";
import { MAX_CLIENT_FAILURES, MAX_FAILURES } from "@/lib/auth/sign-in-limiter";
import { submitPageForm } from "../support/page-form";
import { emailOf, testWorld } from "../support/world";

// Failed sign-ins are limited per email and per client (finding 5 of issue 21): made-up emails sent
// to push a locked email out of the limiter's table run into the per-client limit first, and a forged
// X-Forwarded-For does not make a client someone else (the server is not told to trust a proxy).

const world = testWorld({ users: ["ana"], projects: {}, members: [], tokens: {}, tempPrefix: "baton-sign-in-limit-" });
const PASSWORD = "long enough pass";

async function signIn(email: string, password: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { reply } = await submitPageForm(world.server.port, "/sign-in", { email, password }, headers);
  return { status: reply.status, body: reply.body };
}

describe("the failed sign-in limit", () => {
  it("a locked email stays locked while one client fails for made-up emails, until that client is refused too", async () => {
    for (let i = 0; i < MAX_FAILURES; i++) expect((await signIn(emailOf("ana"), `wrong ${i}`)).body).toContain("Wrong email or password.");
    expect((await signIn(emailOf("ana"), PASSWORD)).body).toContain("Too many failed password attempts for this email.");

    for (let i = MAX_FAILURES; i < MAX_CLIENT_FAILURES; i++) {
      const made = await signIn(`made-up-${i}@example.com`, "guess", { "x-forwarded-for": `198.51.100.${i % 250}` });
      expect(made.body).toContain("Wrong email or password.");
    }
    const refused = await signIn("made-up-next@example.com", "guess", { "x-forwarded-for": "203.0.113.99" });
    expect(refused.body).toContain("Too many failed password attempts from this address.");
    expect((await signIn(emailOf("ana"), PASSWORD)).status).toBe(200);
    expect((await signIn(emailOf("ana"), PASSWORD)).body).toContain("Too many failed password attempts");
  }, 180_000);
});
