import { BASE_URL, expect, signIn, test } from "./fixtures";

// After signing in, Chromium goes back to `next` only on this server's origin (issue 21, finding 2):
// "/\evil.example" and "/<tab>/evil.example" are "//evil.example" to a browser. The made-up host is
// answered by a route here, so a redirect off-site would land somewhere rather than fail to resolve.

test.use({ storageState: { cookies: [], origins: [] } });

for (const next of ["/\\evil.example", "/\t/evil.example", "//evil.example", "https://evil.example/"]) {
  test(`signing in with next=${JSON.stringify(next)} ends on this server`, async ({ page, context }) => {
    await context.route((url) => url.hostname === "evil.example", (route) => route.fulfill({ contentType: "text/html", body: "<h1>Somewhere else</h1>" }));
    await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
    await signIn(page);
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(BASE_URL);
  });
}

test("signing in with a path on this server goes there", async ({ page }) => {
  await page.goto(`/sign-in?next=${encodeURIComponent("/proposals?sort=newest")}`);
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Proposals", level: 1 })).toBeVisible();
  expect(page.url()).toBe(`${BASE_URL}/proposals?sort=newest`);
});
