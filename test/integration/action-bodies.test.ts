import { beforeAll, describe, expect, it } from "vitest";
import { signInCookie } from "../support/dashboard-session";
import { callAction } from "../support/server-action";
import { emailOf, testWorld } from "../support/world";

// A server action answers the page's own calls; anyone can send its id with another body. A form
// action given JSON arguments instead of a form, or arguments that are not JSON at all, is refused
// (the form's message, or the proxy's styled 400 page), never Next.js's bare 500.
const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {}, tempPrefix: "baton-action-bodies-" });
/** The password test/support/fixtures.ts gives every user it makes. */
const PASSWORD = "long enough pass";
let cookie = "";
beforeAll(async () => {
  cookie = await signInCookie(world.server.url, emailOf("ana"), PASSWORD);
});

const FORM_ACTIONS = [
  { name: "editLearningAction", page: "/learnings" },
  { name: "decideProposalFormAction", page: "/proposals" },
  { name: "createProjectAction", page: "/settings/projects" },
  { name: "updateIdentityAction", page: "/identity" },
  { name: "signInAction", page: "/sign-in" },
] as const;

/** A session cookie that names no session: past the proxy's redirect to sign-in, to the action signed out. */
const STALE = "better-auth.session_token=stale.session";

describe("a form action sent JSON arguments instead of a form", () => {
  it.each(FORM_ACTIONS.flatMap((a) => [{ ...a, who: "signed in" }, { ...a, who: "signed out" }]))("$name ($who): the form's bad-request message", async ({ name, page, who }) => {
    for (const body of ["[null]", "[]", '[{"ok":false},{"id":"x"}]']) {
      const reply = await callAction(world.server.url, { name, page, body, cookie: who === "signed in" ? cookie : STALE });
      expect(reply.status, `${body}: ${reply.text.slice(0, 300)}`).toBe(200);
      expect(reply.result, body).toMatchObject({ ok: false, message: "This action takes a submitted form." });
    }
  });

  it("revokeTokenAction (a plain form action): nothing revoked, no error page", async () => {
    const before = await world.sql("SELECT count(*) AS n FROM api_tokens");
    const reply = await callAction(world.server.url, { name: "revokeTokenAction", page: "/settings/tokens", body: "[null]", cookie });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(await world.sql("SELECT count(*) AS n FROM api_tokens")).toEqual(before);
  });
});

describe("a server action's arguments that are not JSON", () => {
  it.each([...FORM_ACTIONS, { name: "revokeTokenAction", page: "/settings/tokens" }, { name: "undoAction", page: "/proposals" }])(
    "$name: the styled 400 page",
    async ({ name, page }) => {
      for (const body of ["{{{garbage", ""]) {
        const reply = await callAction(world.server.url, { name, page, body, cookie });
        expect(reply.status, `${JSON.stringify(body)}: ${reply.text.slice(0, 300)}`).toBe(400);
        expect(reply.text).toContain("The data sent with this action cannot be read.");
      }
    },
  );

  it("the same arguments as JSON are the action's to answer", async () => {
    const reply = await callAction(world.server.url, { name: "undoAction", page: "/proposals", body: '[[{"id":"no-such-proposal"}]]', cookie });
    expect(reply.status).toBe(200);
    expect(reply.result).toEqual({ ok: false, message: "No proposal no-such-proposal." });
  });
});
