import { expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

test.describe("context preview", () => {
  test("shows the exact text the API serves, tokens per section, and what was left out", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("ctx");
    const tag = slug.replace(/-/g, "");
    await api.call("PUT", "/api/seed", { identity: { aiName: "Kit", principalName: "Ada" } });
    await api.project(slug, "Context project");
    await api.handoff(slug, { markdown: `Handoff ${tag}: the login form is done; the reset flow is next.`, branch: "main", author: "ana" });
    for (let i = 0; i < 12; i++) {
      await api.learning({ kind: "pattern", content: `${tag} rule ${i}: ${"keep the build green and the review queue short ".repeat(3)}`, project: slug, confirmed: true });
    }
    await api.propose({ content: `${tag} the preview should show proposals`, project: slug });

    await page.goto("/context");
    await expect(page.getByRole("heading", { name: "Context preview", level: 1 })).toBeVisible();
    await page.getByLabel("Project").selectOption(slug);
    await page.getByLabel("Token budget").fill("2000");
    await page.getByLabel("Branch").fill("main");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page).toHaveURL(new RegExp(`project=${slug}`));

    const text = page.getByTestId("context-text");
    await expect(text).toContainText(`Handoff ${tag}`);
    const served = await api.context({ project: slug, budget: "2000", branch: "main" });
    // Byte for byte what an agent gets for the same parameters (polled: the page may still be arriving).
    await expect.poll(() => text.textContent()).toBe(served.context);
    await expect(page.getByTestId("preview-tokens")).toHaveText(served.tokenEstimate.toLocaleString("en"));
    const chart = page.getByTestId("section-chart");
    for (const s of served.sections) {
      await expect(chart.locator(`g[data-section="${s.name}"]`)).toHaveAttribute("data-tokens", String(s.tokens));
    }
    await expect(chart.locator('g[data-section="handoff"]')).toHaveAttribute("data-included", "true");
    await snap(page, testInfo, "context-preview");

    // A tight budget: learnings shortened or dropped, and the page says so.
    await page.getByLabel("Token budget").fill("300");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page).toHaveURL(/budget=300/);
    const tight = await api.context({ project: slug, budget: "300", branch: "main" });
    await expect.poll(() => text.textContent()).toBe(tight.context);
    expect(tight.tokenEstimate).toBeLessThanOrEqual(300);
    await expect(page.getByTestId("left-out")).toContainText(/Learnings: (shortened, \d+ items? left out|dropped \(12 items\))/);
    await snap(page, testInfo, "context-preview-tight-budget");

    // Both modes: complement (what the hook asks for under PAI) is the same text without identity.
    await expect(page.getByLabel("Mode").locator("option")).toHaveText(["full", "complement (no identity, as under PAI)"]);
    await page.getByLabel("Token budget").fill("2000");
    await page.getByLabel("Mode").selectOption("complement");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page).toHaveURL(/mode=complement/);
    const complement = await api.context({ project: slug, budget: "2000", branch: "main", mode: "complement" });
    await expect.poll(() => text.textContent()).toBe(complement.context);
    expect(complement.context).not.toContain("## Identity");
    expect(served.context).toMatch(/^## Identity\n/);
    // The session state carries the counts by kind (the project's 12 patterns at least) and the seed's version.
    expect(complement.context).toMatch(/^Learnings: (1[2-9]|[2-9]\d|\d{3,}) patterns/m);
    expect(complement.context).toMatch(/^Seed version: \d+\.\d+\.\d+$/m);

    // Out of range: the field says why, nothing is built.
    await page.goto(`/context?project=${slug}&budget=50`);
    await expect(page.getByRole("main").getByRole("alert")).toContainText("Check the highlighted fields.");
    await expect(page.locator("#budget-error")).toBeVisible();
    await expect(page.getByTestId("context-text")).toHaveCount(0);
  });

  test("a preview is not counted as context served", async ({ page }) => {
    const api = new Api();
    const slug = unique("notserved");
    await api.project(slug);
    await page.goto(`/context?project=${slug}`);
    await expect(page.getByTestId("context-text")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("context-text")).toBeVisible();
    // One context an agent is served: the served log, written about a second later and in order,
    // counts it after the previews had they been counted. It is the only one.
    await api.context({ project: slug });
    await expect(async () => {
      await page.goto(`/projects/${slug}`);
      await expect(page.getByTestId("stat-contexts")).not.toHaveText("0", { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId("stat-contexts")).toHaveText("1");
  });
});
