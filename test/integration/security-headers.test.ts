import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { signInCookie } from "../support/dashboard-session";
import { emailOf, testWorld } from "../support/world";

// Issue 21 finding 6: no security headers at all, and a same-site page framed /settings/tokens. Every
// answer of the real built server now carries them: pages with a policy whose scripts need that
// request's nonce, everything else a policy that allows nothing.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
/** The password test/support/fixtures.ts gives every user it creates. */
const PASSWORD = "long enough pass";
let cookie: string;

beforeAll(async () => {
  cookie = await signInCookie(world.server.url, emailOf("ana"), PASSWORD);
});

const get = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  fetch(world.server.url + path, { redirect: "manual", ...init, headers: { cookie, ...headers, ...(init.headers as Record<string, string>) } });

/** The directives of a Content-Security-Policy header, by name. */
function directives(policy: string | null): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const directive of (policy ?? "").split(";")) {
    const [name, ...values] = directive.trim().split(/\s+/);
    if (name) parsed.set(name, values);
  }
  return parsed;
}

function expectCommonHeaders(headers: Headers) {
  expect(headers.get("x-frame-options")).toBe("DENY");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("same-origin");
  expect(directives(headers.get("content-security-policy")).get("frame-ancestors")).toEqual(["'none'"]);
}

/** Asserts a page's policy and answers its nonce. */
function pageNonce(headers: Headers): string {
  expectCommonHeaders(headers);
  const policy = directives(headers.get("content-security-policy"));
  const scripts = policy.get("script-src")!;
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(policy.get("object-src")).toEqual(["'none'"]);
  const nonce = scripts.find((source) => source.startsWith("'nonce-"))?.slice("'nonce-".length, -1);
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(policy.get("style-src")).toContain(`'nonce-${nonce}'`);
  return nonce!;
}

/** Every <script> and <style> element of the HTML, with its nonce attribute if any. */
function elements(html: string): { tag: string; nonce: string | undefined }[] {
  return [...html.matchAll(/<(script|style)\b([^>]*)>/gi)].map((m) => ({ tag: m[0], nonce: /\bnonce="([^"]*)"/.exec(m[2]!)?.[1] }));
}

describe("dashboard pages", () => {
  it.each([
    ["a signed-in page", "/settings/tokens", 200],
    ["the sign-in page, signed out", "/sign-in", 200],
    ["a page that does not exist", "/no-such-page", 404],
    ["a project the user cannot see", "/projects/not-a-project", 404],
  ])("%s: a nonce policy that every script and style in the HTML carries", async (_, path, status) => {
    const res = await get(path, path === "/sign-in" ? { cookie: "" } : {});
    expect(res.status).toBe(status);
    const nonce = pageNonce(res.headers);
    const html = await res.text();
    const scripts = elements(html).filter((e) => e.tag.startsWith("<script"));
    expect(scripts.length).toBeGreaterThan(1);
    expect(elements(html).filter((e) => e.nonce !== nonce)).toEqual([]);
  });

  it("a fresh nonce for every request", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await get("/settings/tokens");
      const nonce = pageNonce(res.headers);
      expect(await res.text()).toContain(`nonce="${nonce}"`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(5);
  });

  it("a nonce the client sends in its own policy header is not the one the page uses", async () => {
    const res = await get("/settings/tokens", { "content-security-policy": "script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='" });
    expect(pageNonce(res.headers)).not.toBe("AAAAAAAAAAAAAAAAAAAAAA==");
    expect(await res.text()).not.toContain("AAAAAAAAAAAAAAAAAAAAAA==");
  });

  it.each([
    ["a signed-out visit, redirected to sign-in", "/settings/tokens", { cookie: "" }, {}, 307],
    ["a bad percent-encoding: the styled 400 page", "/projects/%ff", {}, {}, 400],
    ["a form body that does not parse", "/settings/tokens", { "content-type": "multipart/form-data; boundary=x" }, { method: "POST", body: "not multipart" }, 400],
    ["a server action that does not exist (Next.js answers 409)", "/settings/tokens", { "next-action": "0".repeat(42) }, { method: "POST", body: "[]" }, 409],
  ] as const)("%s: the same headers", async (_, path, headers, init, status) => {
    const res = await get(path, headers, init);
    expect(res.status).toBe(status);
    const nonce = pageNonce(res.headers);
    expect(elements(await res.text()).filter((e) => e.nonce !== nonce)).toEqual([]);
  });
});

describe("what is not a page", () => {
  const NOTHING_ALLOWED = new Map([
    ["default-src", ["'none'"]],
    ["frame-ancestors", ["'none'"]],
  ]);

  it.each<[string, string, Record<string, string>, number, string?]>([
    ["a public API route", "/api/health", {}, 200],
    ["an API route with a token", "/api/projects", { authorization: "Bearer TOKEN" }, 200],
    ["an API route without one", "/api/projects", { cookie: "" }, 401],
    ["an API path no route serves", "/api/no-such-route", {}, 404],
    ["an API method no route takes", "/api/health", {}, 405, "DELETE"],
  ])("%s: headers and a policy that allows nothing", async (_, path, headers, status, method = "GET") => {
    const withToken = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("TOKEN", world.tokens.ana!)]));
    const res = await get(path, withToken, { method });
    expect(res.status).toBe(status);
    expectCommonHeaders(res.headers);
    expect(directives(res.headers.get("content-security-policy"))).toEqual(NOTHING_ALLOWED);
  });

  it("a static file of the build", async () => {
    const html = await (await get("/sign-in", { cookie: "" })).text();
    const chunk = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await get(chunk);
    expect(res.status).toBe(200);
    expectCommonHeaders(res.headers);
    expect(directives(res.headers.get("content-security-policy"))).toEqual(NOTHING_ALLOWED);
  });

  it.each(["/cli/baton.mjs", "/install.sh", "/icon.svg"])("%s carries the headers, signed in or not", async (path) => {
    for (const headers of [{}, { cookie: "" }] as Record<string, string>[]) {
      const res = await get(path, headers);
      expect(res.status).toBe(200);
      expectCommonHeaders(res.headers);
      expect(directives(res.headers.get("content-security-policy")).get("script-src")).not.toContain("'unsafe-inline'");
    }
  });

  it("a request Node cannot parse is answered with the headers too", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(world.server.port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n"));
      let text = "";
      socket.on("data", (d) => (text += d));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    const [head] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 400/);
    const headers = new Headers(head!.split("\r\n").slice(1).map((line) => line.split(/:\s*/, 2) as [string, string]));
    expectCommonHeaders(headers);
  });
});
