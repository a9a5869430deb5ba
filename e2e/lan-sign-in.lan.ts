import { ADMIN, expect, LAN_URL, PORT, signIn, snap, test } from "./fixtures";

// The `lan` project: Chromium reaches the server as http://baton.test:<port>, a LAN name over plain
// HTTP, where a Secure cookie would be dropped and every page would bounce back to sign-in.

const banner = (page: import("@playwright/test").Page) => page.getByTestId("insecure-banner");

test("sign-in over plain HTTP at a LAN name works, and every page says the connection is not encrypted", async ({ page, context }, testInfo) => {
  await page.goto("/");
  await expect(page).toHaveURL(`${LAN_URL}/sign-in`);
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toContainText("This connection is not encrypted.");
  await expect(banner(page)).toContainText("Serve Baton over HTTPS");
  await expect(banner(page)).toContainText("BATON_BASE_URL");
  // Someone never invited reaches this page and nothing else: it says how an account is had.
  await expect(page.getByTestId("no-account")).toContainText("Accounts here come with an invitation");
  await snap(page, testInfo, "lan-sign-in");

  await signIn(page);
  await expect(page).toHaveURL(`${LAN_URL}/`);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toHaveText(ADMIN.email);
  const [session] = (await context.cookies(LAN_URL)).filter((c) => c.name.endsWith("session_token"));
  expect(session).toMatchObject({ name: "better-auth.session_token", secure: false, httpOnly: true, sameSite: "Lax" });

  // Signed in for good: other pages open without a detour through sign-in, each with the banner.
  for (const [path, heading] of [
    ["/proposals", "Proposals"],
    ["/identity", "Identity"],
    ["/settings/tokens", "API tokens"],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveURL(`${LAN_URL}${path}`);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expect(banner(page)).toBeVisible();
  }
  await snap(page, testInfo, "lan-dashboard");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expect(banner(page)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, testInfo, "lan-dashboard-390");
});

test("at localhost and 127.0.0.1 there is no banner", async ({ page }) => {
  for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) {
    await page.goto(`${origin}/sign-in`);
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  }
});

test("the copy buttons copy over plain HTTP at a LAN name, where the browser gives a page no clipboard API", async ({ page, context }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto("/sign-in");
  await signIn(page);
  await expect(page).toHaveURL(`${LAN_URL}/`);
  await page.goto("/settings/connect");
  // Not a secure context: navigator.clipboard is undefined here, as in a teammate's browser.
  expect(await page.evaluate(() => [window.isSecureContext, typeof navigator.clipboard])).toEqual([false, "undefined"]);
  const install = (await page.getByTestId("snippet-install").textContent())!;
  await page.getByRole("button", { name: "Copy 1. The CLI, from this server" }).click();
  await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
  // The hidden text it copied from took the focus for a moment: the button has it back (a keyboard user goes on from there).
  await expect(page.getByRole("button", { name: "Copied" })).toBeFocused();
  expect(errors).toEqual([]);

  // The browser's clipboard, read where a page may read it (127.0.0.1 is a secure context), holds the command.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: `http://127.0.0.1:${PORT}` });
  const reader = await context.newPage();
  await reader.goto(`http://127.0.0.1:${PORT}/sign-in`);
  expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(install);
  await reader.close();
});
