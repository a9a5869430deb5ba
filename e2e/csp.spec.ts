import { BASE_URL, expect, test } from "./fixtures";

// The Content Security Policy in a real browser: the dashboard's own scripts run under it, anything
// else is refused, and nobody can frame a page (issue 21: a same-site page framed /settings/tokens).
// Each test provokes violations on purpose, checks the fixture saw them, then clears the list.

/** Whether Next.js's client runtime started: it sets window.next once its scripts have run. */
const nextStarted = () => (window as { next?: { version?: string } }).next?.version !== undefined;

test.describe("content security policy", () => {
  test("the page's own scripts run; an injected script and an inline handler are refused and reported", async ({ page, cspViolations }) => {
    await page.goto("/settings/tokens");
    await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(nextStarted)).toBe(true);
    expect(cspViolations).toEqual([]);

    await page.addScriptTag({ content: "window.injected = true" }).catch(() => undefined);
    await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<img src="/missing.png" onerror="window.handled = true">'));
    await expect.poll(() => cspViolations.filter((v) => /script-src/.test(v)).length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as { injected?: boolean; handled?: boolean }).injected ?? (window as { handled?: boolean }).handled)).toBeUndefined();
    cspViolations.length = 0;
  });

  test("another page cannot frame the dashboard", async ({ page, cspViolations }) => {
    await page.setContent(`<iframe title="framed" src="${BASE_URL}/settings/tokens"></iframe>`);
    await expect.poll(() => cspViolations.some((v) => /frame-ancestors/.test(v))).toBe(true);
    const framed = page.frames().find((frame) => frame !== page.mainFrame())!;
    await expect(framed.getByRole("heading", { name: "API tokens" })).toHaveCount(0);
    cspViolations.length = 0;
  });
});
