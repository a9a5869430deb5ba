import { ADMIN_STATE, expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

test.describe("tidy-up queue", () => {
  test("lists a contradiction, a near-duplicate, a flagged and a stale learning; keep hides one, merge supersedes", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("tidy");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    const dupA = await api.learning({ content: `run the migrations before the integration tests with pnpm db:migrate`, project: slug });
    const dupB = await api.learning({ content: `run migrations before integration tests: pnpm db:migrate`, project: slug });
    await api.learning({ content: `service listens on :8080`, project: slug });
    await api.learning({ content: `HTTP port changed to 9000 to free 8080 for the sidecar`, project: slug });
    const flagged = await api.learning({ content: `the retry loop lives in src/retry.ts`, project: slug });
    // A session is given it, then its end reports the file deleted (the session-end worker's flag).
    const sessionId = `sess-${tag}`;
    await api.call("GET", `/api/context?project=${slug}&sessionId=${sessionId}&format=json`);
    await api.call("POST", "/api/context/usage", { sessionId, verdicts: [{ id: flagged, touched: false, how: null }], flags: [{ id: flagged, reason: "deleted", file: "src/retry.ts" }] });
    // Added (back-dated) after that context, so never sent to an agent: stale.
    await api.learning({ content: `the legacy export runs from the reports VM`, project: slug, createdAt: new Date(Date.now() - 200 * 86_400_000).toISOString() });

    await page.goto(`/projects/${slug}`);
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Tidy up" }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${slug}/tidy$`));
    await expect(page.getByTestId("tidy-contradictions").getByTestId("learning")).toHaveCount(2);
    await expect(page.getByTestId("tidy-contradictions")).toContainText("listens on :8080");
    await expect(page.getByTestId("tidy-duplicates").getByTestId("learning")).toHaveCount(2);
    await expect(page.getByTestId("tidy-flagged")).toContainText("src/retry.ts");
    await expect(page.getByTestId("tidy-flagged").getByTestId("provenance")).toBeVisible();
    await expect(page.getByTestId("tidy-flagged").getByTestId("usage")).toContainText("given in 1 session");
    await expect(page.getByTestId("tidy-stale")).toContainText("legacy export");
    await snap(page, testInfo, "tidy-queue");

    // Keep by keyboard, as in the review queue: j/k move (once the page's script is listening), y keeps.
    const current = page.locator("[data-tidy-entry][data-current]");
    await expect(async () => {
      await page.keyboard.press("j");
      await expect(current).toHaveCount(1, { timeout: 500 });
    }).toPass();
    for (let i = 0; i < 4; i++) await page.keyboard.press("k");
    for (let i = 0; i < 3; i++) await page.keyboard.press("j");
    await expect(current).toContainText("legacy export");
    await page.keyboard.press("y");
    await expect(page.getByTestId("tidy-stale")).toHaveCount(0);

    const firstOfPair = page.getByTestId("tidy-duplicates").getByTestId("learning").first();
    const keptText = await firstOfPair.locator(".learning-content").textContent();
    await firstOfPair.getByRole("button", { name: "Merge into this one" }).click();
    await expect(page.getByTestId("tidy-duplicates")).toHaveCount(0);
    const [kept, dropped] = keptText?.includes("with pnpm") ? [dupA, dupB] : [dupB, dupA];
    const learning = (await api.call<{ learning: { supersededBy: string | null } }>("GET", `/api/learnings/${dropped}`)).learning;
    expect(learning.supersededBy).toBe(kept);
    expect((await api.call<{ stale: unknown[] }>("GET", `/api/projects/${slug}/tidy`)).stale).toEqual([]);
  });

  test("without JavaScript: supersede and keep are plain forms", async ({ browser }) => {
    const api = new Api();
    const slug = unique("tidynojs");
    await api.project(slug);
    const old = await api.learning({ content: "The default branch is `master`; open PRs against it.", project: slug });
    const replacement = await api.learning({ content: "Default branch was renamed — target main for PRs.", project: slug });
    await api.learning({ content: "The nightly export runs from the reports VM", project: slug, createdAt: new Date(Date.now() - 120 * 86_400_000).toISOString() });
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: ADMIN_STATE });
    const page = await context.newPage();
    await page.goto(`/projects/${slug}/tidy`);
    const pair = page.getByTestId("tidy-contradictions").getByTestId("tidy-pair");
    await pair.getByTestId("learning").filter({ hasText: "target main" }).getByRole("button", { name: "This one supersedes the other" }).click();
    await expect(page.getByTestId("tidy-contradictions")).toHaveCount(0);
    expect((await api.call<{ learning: { supersededBy: string | null } }>("GET", `/api/learnings/${old}`)).learning.supersededBy).toBe(replacement);
    await page.getByTestId("tidy-stale").getByRole("button", { name: "Keep", exact: true }).click();
    await expect(page.getByTestId("tidy-stale")).toHaveCount(0);
    await context.close();
  });
});
