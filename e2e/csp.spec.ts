import { BASE_URL, expect, test } from "./fixtures";

// The Content Security Policy in a real browser: the dashboard's own scripts run under it, anything
// else is refused, and nobody can frame a page (issue 21: a same-site page framed /settings/tokens).
// Each test provokes violations on purpose, checks the fixture saw them, then clears the list.

/** Whether Next.js's client runtime started: it sets window.next once its scripts have run. */
const nextStarted = () => (window as { next?: { version?: string } }).next?.version !== undefined;

test.describe("content security policy", () => {
  test("the page's own scripts run; a script the server did not nonce and an inline handler are refused and reported", async ({ page, cspViolations }) => {
    // As a stored XSS would arrive: in the server's HTML, under the server's own headers.
    await page.route("**/settings/tokens", async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: (await response.text()).replace("</body>", "<script>window.injected = true</script></body>") });
    });
    await page.goto("/settings/tokens");
    await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(nextStarted)).toBe(true);
    await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", '<img src="/missing.png" onerror="window.handled = true">'));

    // Each is reported twice (Chromium's log line and the DOM event), the handler once the image fails.
    const reported = () => ({ count: cspViolations.length, script: cspViolations.some((v) => /script-src-elem/.test(v)), handler: cspViolations.some((v) => /script-src-attr/.test(v)) });
    await expect.poll(reported).toEqual({ count: 4, script: true, handler: true });
    const ran = await page.evaluate(() => [(window as { injected?: true }).injected, (window as { handled?: true }).handled]);
    expect(ran).toEqual([undefined, undefined]);
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
