import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ADMIN, ADMIN_STATE, ADMIN_TOKEN_FILE, createToken, expect, snap, test as setup } from "./fixtures";

setup("first run: setup creates the admin and signs in", async ({ page, browser }, testInfo) => {
  // A fresh install sends every page to /setup (via /sign-in).
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Welcome to Baton" })).toBeVisible();
  await snap(page, testInfo, "setup-form");

  await page.getByLabel("Your name").fill(ADMIN.name);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByLabel("Password again").fill(ADMIN.password);
  await page.getByRole("button", { name: "Create the admin account" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toHaveText(ADMIN.email);
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await snap(page, testInfo, "projects-after-setup");
  await page.context().storageState({ path: ADMIN_STATE });

  // The write token the `api` project and the tests' seeding use (e2e/api-fixtures.ts, e2e/seed.ts).
  const token = await createToken(page, "e2e seeding", "write");
  mkdirSync(path.dirname(ADMIN_TOKEN_FILE), { recursive: true });
  writeFileSync(ADMIN_TOKEN_FILE, token, { mode: 0o600 });

  // Setup is offered only once: a signed-out visitor is now sent to sign in.
  const anonymous = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const other = await anonymous.newPage();
    await other.goto("/setup");
    await expect(other).toHaveURL(/\/sign-in$/);
    await expect(other.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await snap(other, testInfo, "setup-after-setup-is-sign-in");
  } finally {
    await anonymous.close();
  }
});
