import { expect } from "vitest";
import { signInCookie } from "./dashboard-session";
import { hiddenFields } from "./page-form";
import { emailOf, type World } from "./world";

/** The password test/support/fixtures.ts gives every user of a test world. */
const PASSWORD = "long enough pass";

/**
 * The dashboard's page for approving a `baton login` code (/connect/device?code=…), read and posted as
 * a browser without JavaScript does, signed in as a user of `world`.
 */
export function loginApproval(world: World) {
  const cookies = new Map<string, string>();
  async function cookieOf(who: string): Promise<string> {
    if (!cookies.has(who)) cookies.set(who, await signInCookie(world.server.url, emailOf(who), PASSWORD));
    return cookies.get(who)!;
  }

  const pagePath = (code: string) => `/connect/device?code=${encodeURIComponent(code)}`;

  /** The approval page as `who` sees it. */
  async function approvalPage(who: string, code: string): Promise<string> {
    const res = await fetch(world.server.url + pagePath(code), { headers: { cookie: await cookieOf(who) }, redirect: "manual" });
    expect(res.status).toBe(200);
    // React writes <!-- --> between neighbouring pieces of text; a reader sees one line.
    return (await res.text()).replace(/<!-- -->/g, "");
  }

  /** The hidden fields of the page's approve/deny form (its server action), or null when the page shows none. */
  function answerForm(html: string): [string, string][] | null {
    const form = [...html.matchAll(/<form\b[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('name="decision"'));
    return form ? hiddenFields(form) : null;
  }

  /** Posts the approval form as `who` with `fields` (decision, name, scope, project:<slug>); the page it answers with. */
  async function postAnswer(who: string, code: string, hidden: [string, string][], fields: Record<string, string>): Promise<string> {
    const body = new FormData();
    for (const [name, value] of hidden) body.append(name, value);
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    const res = await fetch(world.server.url + pagePath(code), { method: "POST", body, headers: { cookie: await cookieOf(who), origin: world.server.url }, redirect: "manual" });
    return (await res.text()).replace(/<!-- -->/g, "");
  }

  /** Opens the page for `code` as `who` and answers it. */
  async function answer(who: string, code: string, fields: Record<string, string>): Promise<string> {
    const hidden = answerForm(await approvalPage(who, code));
    expect(hidden, `the approval form for ${code}`).not.toBeNull();
    return postAnswer(who, code, hidden!, fields);
  }

  return { cookieOf, approvalPage, answerForm, postAnswer, answer };
}
