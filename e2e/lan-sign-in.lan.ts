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
