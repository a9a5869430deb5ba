import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, type Browser, type Page } from "@playwright/test";
import type { AgentName, EvidenceLine, LearningKind, LessonKind, ProposalMethod } from "../lib/rules";
import { ADMIN_TOKEN_FILE, BASE_URL, DATABASE_URL } from "./fixtures";

/** The admin's write token that auth.setup.ts made. */
export function adminToken(): string {
  return readFileSync(ADMIN_TOKEN_FILE, "utf8").trim();
}

/**
 * Seeds test data through the HTTP API with a Bearer token, as an agent would: every test states what it
 * needs instead of leaning on what an earlier test left behind.
 */
export class Api {
  constructor(readonly token: string = adminToken()) {}

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const send = () =>
      fetch(`${BASE_URL}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // "other side closed": under load, mostly a kept-alive socket the server closed as it idled out,
    // before this request reached it; once more on a new socket (as test/support/api.ts does).
    const response = await send().catch((error: unknown) => {
      if ((error as { cause?: { code?: string } })?.cause?.code === "UND_ERR_SOCKET") return send();
      throw error;
    });
    const text = await response.text();
    expect(expected, `${method} ${path} → ${response.status} ${text}`).toContain(response.status);
    return (text ? JSON.parse(text) : {}) as T;
  }

  project(slug: string, name = slug) {
    return this.call("POST", "/api/projects", { slug, name });
  }

  async propose(p: {
    kind?: LearningKind;
    content: string;
    confidence?: number;
    project?: string;
    source?: string;
    agent?: AgentName;
    model?: string;
    lesson?: LessonKind;
    evidence?: EvidenceLine[];
    method?: ProposalMethod;
  }): Promise<string> {
    const body = await this.call<{ proposal: { id: string } | null }>("POST", "/api/proposals", { kind: "pattern", ...p });
    expect(body.proposal, `proposal merged: ${p.content}`).not.toBeNull();
    return body.proposal!.id;
  }

  async learning(l: { kind?: LearningKind; content: string; project?: string; tags?: string[]; confirmed?: boolean; createdAt?: string }): Promise<string> {
    const body = await this.call<{ learning: { id: string } }>("POST", "/api/learnings", { kind: "insight", ...l });
    return body.learning.id;
  }

  handoff(slug: string, h: { markdown: string; branch?: string; author?: string; sessionId?: string; agent?: AgentName; model?: string }) {
    return this.call("POST", `/api/projects/${slug}/handoffs`, h);
  }

  session(slug: string, markdown: string) {
    return this.call("POST", `/api/projects/${slug}/sessions`, { markdown });
  }

  /** By id alone, or under its project (an id is unique only within one). */
  claim(id: string, slug?: string) {
    return this.call("POST", `${slug ? `/api/projects/${slug}` : "/api"}/sessions/${id}/claim`);
  }

  complete(id: string, slug?: string) {
    return this.call("POST", `${slug ? `/api/projects/${slug}` : "/api"}/sessions/${id}/complete`);
  }

  context(query: Record<string, string>) {
    return this.call<{ context: string; tokenEstimate: number; sections: { name: string; tokens: number; included: boolean; omitted: number }[] }>(
      "GET",
      `/api/context?${new URLSearchParams(query)}`,
    );
  }

  async proposalStatus(id: string, project?: string): Promise<string | undefined> {
    for (const status of ["pending", "accepted", "rejected"]) {
      const query = new URLSearchParams({ status, limit: "100", ...(project ? { project } : {}) });
      const body = await this.call<{ items: { id: string }[] }>("GET", `/api/proposals?${query}`);
      if (body.items.some((p) => p.id === id)) return status;
    }
    return undefined;
  }
}

/** `baton admin` against the e2e server's database (the operator's way to add people). */
export function batonAdmin(args: string[]): string {
  return execFileSync("node", ["cli/bin/baton.mjs", "admin", ...args], {
    env: { ...process.env, DATABASE_URL },
    encoding: "utf8",
  }).trim();
}

export type TestUser = { email: string; name: string; password: string; token: string };

/** A second person: an account made with the CLI, and a write token of theirs. */
export function createUser(prefix: string): TestUser {
  const email = `${prefix}-${Date.now().toString(36)}@example.test`;
  const user = { email, name: `${prefix[0]!.toUpperCase()}${prefix.slice(1)} Person`, password: "another long password" };
  batonAdmin(["create-user", "--email", email, "--password", user.password, "--name", user.name]);
  const token = batonAdmin(["create-token", "--email", email, "--name", "e2e", "--scope", "write"]);
  return { ...user, token };
}

/** A page signed in as someone other than the admin, in a fresh browser context. */
export async function signedInPage(browser: Browser, user: TestUser): Promise<Page> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(user.email);
  return page;
}

