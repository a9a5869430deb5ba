import type { Page } from "@playwright/test";
import { ADMIN_STATE, expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

// Pinning on the learnings page, and superseding from the review queue, with and without JavaScript.

const cards = (page: Page) => page.getByTestId("learning");
const card = (page: Page, text: string) => cards(page).filter({ hasText: text });
const queueRow = (page: Page, text: string) => page.getByRole("list", { name: "Pending proposals" }).getByRole("listitem").filter({ hasText: text });

type Learning = { pinned: boolean; supersededAt: string | null; supersededBy: string | null };
const learning = async (api: Api, id: string) => (await api.call<{ learning: Learning }>("GET", `/api/learnings/${id}`)).learning;

test.describe("pinned and superseded learnings", () => {
  test("the pin toggle puts a learning first in every context of its project, and takes it out again", async ({ page, browser }, testInfo) => {
    const api = new Api();
    const slug = unique("pin");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    const id = await api.learning({ kind: "pattern", content: `${tag} nothing is deployed on Fridays`, project: slug, confirmed: true });
    await api.learning({ kind: "insight", content: `${tag} the session cookie is refreshed daily`, project: slug, confirmed: true });

    await page.goto(`/learnings?q=${tag}`);
    await expect(cards(page)).toHaveCount(2);
    const friday = card(page, "deployed on Fridays");
    await expect(friday.locator(".badge-pinned")).toHaveCount(0);
    await friday.getByRole("button", { name: "Pin", exact: true }).click();
    await expect(friday.locator(".badge-pinned")).toHaveText("pinned");
    await expect(friday.getByRole("button", { name: "Unpin" })).toBeVisible();
    await snap(page, testInfo, "learning-pinned");
    expect((await learning(api, id)).pinned).toBe(true);
    const ctx = await api.context({ project: slug, q: "session cookie" });
    // First, before the ranked ones (the admin's personal learnings from other specs count in the total too).
    expect(ctx.context).toMatch(new RegExp(`## Relevant learnings \\(\\d+/\\d+, 1 pinned\\)\\n- ${tag} nothing is deployed on Fridays \\(pinned\\)\\n`));

    // The filter the overflow line links to lists the pinned ones alone.
    await page.goto(`/learnings?q=${tag}&pinned=true`);
    await expect(cards(page)).toHaveCount(1);
    await expect(page.getByLabel("Pinned only")).toBeChecked();

    // Without JavaScript the toggle is a plain form.
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: ADMIN_STATE });
    const plain = await context.newPage();
    await plain.goto(`/learnings?q=${tag}`);
    await card(plain, "deployed on Fridays").getByRole("button", { name: "Unpin" }).click();
    await expect(card(plain, "deployed on Fridays").getByRole("button", { name: "Pin", exact: true })).toBeVisible();
    await expect(card(plain, "deployed on Fridays").locator(".badge-pinned")).toHaveCount(0);
    await context.close();
    expect((await learning(api, id)).pinned).toBe(false);
    expect((await api.context({ project: slug, q: "session cookie" })).context).not.toContain("(pinned)");
  });

  test("the review queue shows a similar learning; ticking it marks it superseded on accept, and it can be restored", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("sup");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    const oldText = `${tag} deploys go through the staging bucket before production`;
    const newText = `${tag} deploys now skip the staging bucket and go straight to production`;
    const old = await api.learning({ kind: "pattern", content: oldText, project: slug, confirmed: true });
    await api.propose({ content: newText, project: slug });

    await page.goto(`/proposals?project=${slug}`);
    await expect(page.getByTestId("review-queue")).toHaveAttribute("data-ready", "true");
    const row = queueRow(page, newText);
    await expect(row.getByTestId("similar-learnings")).toContainText(oldText);
    const box = row.getByRole("checkbox", { name: /^Supersede/ });
    await box.check();
    await snap(page, testInfo, "review-supersede-ticked");
    await row.getByRole("button", { name: "Accept", exact: true }).click();
    await expect(row).toHaveAttribute("data-state", "accepted");
    await expect(box).toBeDisabled();
    await expect.poll(async () => (await learning(api, old)).supersededBy).not.toBeNull();
    const ctx = await api.context({ project: slug, q: "deploys staging bucket production" });
    expect(ctx.context).toContain(newText);
    expect(ctx.context).not.toContain(oldText);

    // Still on the learnings page, marked, with what replaced it; restoring puts it back in use.
    await page.goto(`/learnings?q=${tag}`);
    const marked = card(page, oldText);
    await expect(marked.locator(".badge-superseded")).toHaveText("superseded");
    await expect(marked.getByTestId("superseded-by")).toContainText(`by ${newText}; no longer sent to agents`);
    await snap(page, testInfo, "learning-superseded");
    await marked.getByRole("button", { name: "Restore (no longer superseded)" }).click();
    await expect(marked.locator(".badge-superseded")).toHaveCount(0);
    expect((await learning(api, old)).supersededAt).toBeNull();
    expect((await api.context({ project: slug, q: "deploys staging bucket production" })).context).toContain(oldText);
  });

  test("without JavaScript the supersede box posts with the row's accept form", async ({ browser }) => {
    const api = new Api();
    const slug = unique("supnojs");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    const oldText = `${tag} releases are tagged by hand on the main branch`;
    const old = await api.learning({ kind: "pattern", content: oldText, project: slug, confirmed: true });
    await api.propose({ content: `${tag} releases are tagged by the release workflow, never by hand`, project: slug });
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: ADMIN_STATE });
    const page = await context.newPage();
    await page.goto(`/proposals?project=${slug}`);
    const row = queueRow(page, "release workflow");
    await row.getByRole("checkbox", { name: /^Supersede/ }).check();
    await row.getByRole("button", { name: "Accept", exact: true }).click();
    // The page renders again without the decided proposal.
    await expect(page.getByText("Nothing to review.")).toBeVisible();
    await context.close();
    expect((await learning(api, old)).supersededBy).not.toBeNull();
  });
});
