import { test as base, expect, type Browser, type BrowserContext, type Page, type TestInfo } from "@playwright/test";

/**
 * Every spec's `test` (import it from here, not from @playwright/test; eslint.config.mjs holds to it):
 * Playwright's, with each browser context of the test watched for Content Security Policy violations.
 * A violation fails the test: a script the policy refused is a page that does not work for its users,
 * even when the test's own steps happened to pass. `cspViolations` lists them for a test that provokes
 * one on purpose (and clears it).
 */
export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ browser, context }, use) => {
      const violations: string[] = [];
      const unwatch = await watchContexts(browser, context, violations);
      await use(violations);
      unwatch();
      expect(violations, "Content Security Policy violations").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/** What Chromium logs when the policy refuses something (the DOM event is reported the same way). */
const VIOLATION = /Content Security Policy|Refused to (?:execute|load|apply|evaluate|frame|connect)/;

/** Watches `context` and every context the test opens itself (`browser.newContext`, `browser.newPage`). */
async function watchContexts(browser: Browser, context: BrowserContext, violations: string[]): Promise<() => void> {
  const watch = async (watched: BrowserContext) => {
    watched.on("console", (message) => {
      if (message.type() === "error" && VIOLATION.test(message.text())) violations.push(`${message.location().url || "page"}: ${message.text()}`);
    });
    // Catches what Chromium does not log, reported through the console listener above.
    await watched.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(`Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`),
      );
    });
  };
  const newContext = browser.newContext;
  browser.newContext = async (options) => {
    const opened = await newContext.call(browser, options);
    await watch(opened);
    return opened;
  };
  await watch(context);
  return () => {
    browser.newContext = newContext;
  };
}

/**
 * Shared by playwright.config.ts and the tests. E2E_PORT lets two runs (two engineers, two build
 * folders) live side by side; each port gets its own database file and saved sign-in state.
 */
export const PORT = Number(process.env.E2E_PORT || 3211);
export const BASE_URL = `http://127.0.0.1:${PORT}`;

/** A name for this machine as a teammate on the LAN would use it; the `lan` project maps it to 127.0.0.1. */
export const LAN_HOST = "baton.test";
export const LAN_URL = `http://${LAN_HOST}:${PORT}`;

/** The server's database: fresh on every run (playwright.config.ts deletes it before starting). */
export const DATA_DIR = PORT === 3211 ? "e2e/.data" : `e2e/.data/port-${PORT}`;
export const DATABASE_URL = `file:${DATA_DIR}/baton.db`;

/** Where auth.setup.ts saves the admin's signed-in browser state for the `ui` project. */
export const ADMIN_STATE = PORT === 3211 ? "e2e/.auth/admin.json" : `e2e/.auth/admin-${PORT}.json`;

/** Where the `api` project finds the admin's write token (auth.setup.ts creates it). */
export const ADMIN_TOKEN_FILE = PORT === 3211 ? "e2e/.auth/admin-token.txt" : `e2e/.auth/admin-token-${PORT}.txt`;

/** The account the first-run setup creates (the database is fresh on every run). */
export const ADMIN = {
  name: "Ada Admin",
  email: "ada@example.test",
  password: "correct horse battery staple",
} as const;

/** A suffix that keeps names unique within a run, so a retried test never collides with itself. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/**
 * A full-page screenshot kept as test-results/e2e/<test>/<name>.png. (Not attached as well: an attachment
 * is a second copy on disk, or base64 inside test-results/playwright.json.)
 */
export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** Fills the sign-in form (the page must already show it) and submits it. */
export async function signIn(page: Page, password: string = ADMIN.password): Promise<void> {
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Creates a project through the dashboard form and waits for it in the table. */
export async function createProject(page: Page, name: string, slug: string): Promise<void> {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(`Project ${slug} created.`);
  await expect(page.getByRole("row").filter({ hasText: slug })).toContainText(name);
}

/** Creates a token on /settings/tokens and returns the secret the page shows once. */
export async function createToken(page: Page, name: string, scope: "write" | "read"): Promise<string> {
  await page.goto("/settings/tokens");
  await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Scope").selectOption(scope);
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByTestId("new-token");
  await expect(secret).toHaveText(/^baton_[A-Za-z0-9_-]{20,}$/);
  return (await secret.textContent())!.trim();
}
