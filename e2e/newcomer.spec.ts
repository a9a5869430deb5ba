import type { Page } from "@playwright/test";
import { expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

// What a newcomer trips over first: the new-project form, a small screen, a wrong address, the tab's icon,
// and two lists of the same pending proposals in two different orders.

const PHONE = { width: 390, height: 844 };

/** The page scrolls sideways when its content is wider than the window. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test.describe("newcomer findings", () => {
  test("the new-project form fills the slug from the name until the slug is typed, and keeps both after an error", async ({ page }, testInfo) => {
    const taken = unique("taken");
    await new Api().project(taken, "Taken");
    await page.goto("/");
    const name = page.getByLabel("Name");
    const slug = page.getByLabel("Slug");
    await name.fill("Café Billing Service");
    await expect(slug).toHaveValue("cafe-billing-service");

    // A slug typed by hand stays, whatever the name becomes.
    await slug.fill(taken);
    await name.fill("Billing");
    await expect(slug).toHaveValue(taken);
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page.getByRole("main").getByRole("alert").first()).toContainText(taken);
    await expect(name).toHaveValue("Billing");
    await expect(slug).toHaveValue(taken);
    await snap(page, testInfo, "new-project-refused");

    // Emptied, the slug follows the name again; created, the form is empty for the next one.
    const fresh = unique("billing");
    await slug.fill("");
    await name.fill(fresh.toUpperCase());
    await expect(slug).toHaveValue(fresh);
    await page.getByRole("button", { name: "Create project" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(`Project ${fresh} created.`);
    await expect(name).toHaveValue("");
    await expect(slug).toHaveValue("");
  });

  test("at 390 px the header fits and no page scrolls sideways", async ({ page }, testInfo) => {
    const slug = unique("phone");
    await new Api().project(slug, "A project with a rather long name for a phone");
    await page.setViewportSize(PHONE);
    for (const path of ["/", "/proposals", "/learnings", "/identity", "/context", "/settings/tokens", `/projects/${slug}`, `/projects/${slug}/sessions`]) {
      await page.goto(path);
      const header = page.locator(".topbar");
      await expect(header).toBeVisible();
      const box = (await header.boundingBox())!;
      expect(box.x + box.width, path).toBeLessThanOrEqual(PHONE.width);
      for (const link of await page.getByRole("navigation", { name: "Main" }).getByRole("link").all()) {
        const linkBox = (await link.boundingBox())!;
        expect(linkBox.x + linkBox.width, `${path}: ${await link.textContent()}`).toBeLessThanOrEqual(PHONE.width);
      }
      const signOut = (await page.getByRole("button", { name: "Sign out" }).boundingBox())!;
      expect(signOut.x + signOut.width, path).toBeLessThanOrEqual(PHONE.width);
      expect(await scrollsSideways(page), path).toBe(false);
    }
    await page.goto("/");
    await snap(page, testInfo, "projects-390");
    await page.goto("/proposals");
    await snap(page, testInfo, "proposals-390");
  });

  test("a wrong address: a styled 404 with the way back", async ({ page }, testInfo) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
    await snap(page, testInfo, "not-found");
    await page.getByRole("link", { name: "Back to your projects" }).click();
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

    // Inside the dashboard (a project that is not yours): the same way back, in the dashboard's frame.
    await page.goto(`/projects/${unique("nobodys")}`);
    await expect(page.getByRole("heading", { name: "Not found", level: 1 })).toBeVisible();
    await page.getByRole("link", { name: "Back to your projects" }).click();
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  });

  test("the tab has Baton's icon", async ({ page, request }) => {
    await page.goto("/");
    const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
    expect(href).toMatch(/^\/icon\.svg/);
    const icon = await request.get(href!, { maxRedirects: 0 });
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  });

  test("pending proposals: the review queue's default order is the context's", async ({ page }) => {
    const api = new Api();
    const slug = unique("order");
    await api.project(slug);
    const tag = slug.replace(/-/g, "");
    const ids: string[] = [];
    for (const [word, confidence] of [["low", 0.2], ["high", 0.95], ["mid", 0.55], ["newest", 0.4]] as const) {
      ids.push(await api.propose({ content: `${word} ${tag} keeps the changelog current`, confidence, project: slug }));
    }
    await page.goto(`/proposals?project=${slug}`);
    const shown = await page.getByTestId("proposal-content").allTextContents();
    expect(shown.map((t) => t.split(" ")[0])).toEqual(["high", "mid", "newest", "low"]);

    const { context } = await api.context({ project: slug });
    const prefixOf = new Map(ids.map((id, i) => [id.replace(/-/g, "").slice(0, 5), ["low", "high", "mid", "newest"][i]]));
    const listed = context
      .split("\n")
      .map((line) => /^- ([0-9a-f]{5}) /.exec(line)?.[1])
      .filter((prefix): prefix is string => !!prefix && prefixOf.has(prefix));
    expect(listed.map((prefix) => prefixOf.get(prefix))).toEqual(["high", "mid", "newest", "low"]);
  });
});
