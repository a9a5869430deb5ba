import type { Page } from "@playwright/test";
import { KIND_OF_SEED_CATEGORY, MAX_CONTENT_CHARS } from "../lib/rules";
import { ADMIN, ADMIN_STATE, expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

const cards = (page: Page) => page.getByTestId("learning");
const card = (page: Page, text: string) => cards(page).filter({ hasText: text });

test.describe("learnings", () => {
  test("a learning says where it came from: proposer, agent, session, who accepted and edited it; a typed one who wrote it", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("provenance");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    const id = await api.propose({ content: `${tag} caches expire at midnight UTC`, project: slug, confidence: 0.9, agent: "codex", model: "gpt-5.1", source: `sess-${tag}` });
    await api.call("POST", `/api/proposals/${id}/accept`, { content: `${tag} caches expire at midnight UTC, not local time` });
    await api.learning({ content: `${tag} typed by hand`, project: slug });
    await page.goto(`/learnings?project=${slug}`);
    const day = "\\d{4}-\\d\\d-\\d\\d";
    await expect(card(page, "not local time").getByTestId("provenance")).toHaveText(
      new RegExp(`^proposed by ${ADMIN.name} \\(Codex CLI · gpt-5\\.1\\) in session sess-${tag}, accepted by ${ADMIN.name} on ${day}, edited by ${ADMIN.name} on ${day}$`),
    );
    await expect(card(page, "typed by hand").getByTestId("provenance")).toHaveText(`written by ${ADMIN.name}`);
    await snap(page, testInfo, "learning-provenance");
  });

  test("a learning says whether sessions touched it, the files it names, and why it is flagged", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("usage");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    const used = await api.learning({ content: `${tag} generated code lives in src/gen/types.ts`, project: slug, confirmed: true });
    const idle = await api.learning({ content: `${tag} releases go out on Tuesdays`, project: slug, confirmed: true });
    // A session is given both (its start's context), then its end reports: one touched, one flagged.
    const sessionId = `sess-${tag}`;
    await api.call("GET", `/api/context?project=${slug}&sessionId=${sessionId}&format=json`);
    await api.call("POST", "/api/context/usage", {
      sessionId,
      verdicts: [
        { id: used, touched: true, how: "file" },
        { id: idle, touched: false, how: null },
      ],
      flags: [{ id: used, reason: "deleted", file: "src/gen/types.ts" }],
    });
    await page.goto(`/learnings?project=${slug}`);
    const day = "\\d{4}-\\d\\d-\\d\\d";
    await expect(card(page, "src/gen/types.ts").getByTestId("usage")).toHaveText("given in 1 session, touched in 1, last today · names src/gen/types.ts");
    await expect(card(page, "src/gen/types.ts").getByTestId("flag")).toHaveText(new RegExp(`^flagged src/gen/types\\.ts was deleted in a session on ${day};`));
    await expect(card(page, "Tuesdays").getByTestId("usage")).toHaveText("given in 1 session, never touched");
    await expect(card(page, "Tuesdays").getByTestId("flag")).toHaveCount(0);
    await snap(page, testInfo, "learning-usage");
    // Checked and still true: the flag goes.
    await card(page, "src/gen/types.ts").getByRole("button", { name: "Still true: clear the flag" }).click();
    await expect(card(page, "src/gen/types.ts").getByTestId("flag")).toHaveCount(0);
    expect((await api.call<{ learning: { flag: unknown } }>("GET", `/api/learnings/${used}`)).learning.flag).toBeNull();
  });

  test("right-to-left text reads right to left, each paragraph in its own direction, on the learnings page and in a handoff", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("rtl");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    await api.learning({ content: `הריצו npm run build לפני הפריסה (${tag} גרסה 2.1)!`, project: slug });
    await api.learning({ content: `${tag} run npm run build before deploying (גרסה 2.1)`, project: slug });
    await api.handoff(slug, { markdown: `- סיימנו את ההעברה ל-Postgres 16 (${tag})\n- ${tag} migrated the jobs table\n\nהשלב הבא: אינדקסים`, branch: "main" });
    const direction = (locator: ReturnType<Page["locator"]>) => locator.evaluate((el) => getComputedStyle(el).direction);
    await page.goto(`/learnings?project=${slug}`);
    await expect(card(page, "הריצו")).toHaveCount(1);
    expect(await direction(card(page, "הריצו").locator(".learning-content"))).toBe("rtl");
    expect(await direction(card(page, "before deploying").locator(".learning-content"))).toBe("ltr");
    await snap(page, testInfo, "learnings-rtl");
    await page.goto(`/projects/${slug}/handoffs`);
    const handoff = page.getByTestId("handoff").first();
    expect(await direction(handoff.locator("li", { hasText: "סיימנו" }))).toBe("rtl");
    expect(await direction(handoff.locator("li", { hasText: "migrated the jobs table" }))).toBe("ltr");
    expect(await direction(handoff.locator("p", { hasText: "השלב הבא" }))).toBe("rtl");
  });

  test("full-text search, and filters by kind and project", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("lrn");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    await api.learning({ kind: "pattern", content: `${tag} the migrations run before the integration tests`, project: slug, confirmed: true });
    await api.learning({ kind: "insight", content: `${tag} flaky websocket tests come from a shared port`, project: slug, tags: ["websocket"] });
    await api.learning({ kind: KIND_OF_SEED_CATEGORY.selfKnowledge, content: `${tag} I tend to over-engineer migration scripts`, confirmed: true });

    await page.goto("/learnings");
    await expect(page.getByRole("heading", { name: "Learnings", level: 1 })).toBeVisible();
    await page.getByRole("searchbox", { name: "Search" }).fill(`${tag} migrations`);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=/);
    // The API's search: BM25 over content and tags, stemmed ("migrations" finds "migration").
    await expect(cards(page)).toHaveCount(3);
    // The one that shares only the tag word ranks last.
    await expect(cards(page).nth(2)).toContainText("flaky websocket");
    await snap(page, testInfo, "learnings-search");

    const search = page.getByRole("search", { name: "Search learnings" });
    await search.getByLabel("Kind").selectOption("insight");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText("flaky websocket");

    await page.goto(`/learnings?q=${tag}&project=${slug}`);
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByText("over-engineer")).toHaveCount(0);
    await expect(search.getByLabel("Project")).toHaveValue(slug);
    await snap(page, testInfo, "learnings-filtered");

    await page.goto(`/learnings?q=${tag}nothingmatches`);
    await expect(page.getByText("No learning matches.")).toBeVisible();
  });

  test("edit, confirm, and delete after confirming", async ({ page }, testInfo) => {
    const api = new Api();
    const tag = unique("edit").replace(/-/g, "");
    const id = await api.learning({ kind: "insight", content: `${tag} cache keys include the locale`, confirmed: false });
    await page.goto(`/learnings?q=${tag}`);
    const item = card(page, tag);
    await expect(item).toContainText("unconfirmed");

    await item.getByRole("button", { name: "Confirm" }).click();
    await expect(item.locator(".badge-ok")).toHaveText("confirmed");
    await expect.poll(async () => (await api.call<{ learning: { confirmed: boolean } }>("GET", `/api/learnings/${id}`)).learning.confirmed).toBe(true);

    await item.getByText("Edit", { exact: true }).click();
    await item.getByLabel("Text").fill(`${tag} cache keys include the locale and the currency`);
    await item.getByLabel("Kind").selectOption("pattern");
    await item.getByLabel("Tags").fill("cache, i18n");
    await snap(page, testInfo, "learnings-edit");
    await item.getByRole("button", { name: "Save" }).click();
    await expect(card(page, "and the currency")).toContainText("tags: cache, i18n");
    const stored = await api.call<{ learning: { content: string; kind: string; tags: string[] } }>("GET", `/api/learnings/${id}`);
    expect(stored.learning).toMatchObject({ content: `${tag} cache keys include the locale and the currency`, kind: "pattern", tags: ["cache", "i18n"] });

    // An empty text is refused with the reason, and nothing changes.
    await page.reload();
    await card(page, tag).getByText("Edit", { exact: true }).click();
    await card(page, tag).getByLabel("Text").fill("   ");
    await card(page, tag).getByLabel("Text").evaluate((el) => el.removeAttribute("required"));
    await card(page, tag).getByRole("button", { name: "Save" }).click();
    await expect(card(page, tag).getByRole("alert").first()).toContainText("Check the highlighted fields.");

    // Delete asks first.
    await page.goto(`/learnings?q=${tag}`);
    await card(page, tag).getByText("Delete…").click();
    await expect(card(page, tag).getByText("Delete this learning for good?")).toBeVisible();
    await snap(page, testInfo, "learnings-delete-confirm");
    await card(page, tag).getByRole("button", { name: "Delete learning" }).click();
    await expect(cards(page)).toHaveCount(0);
    await api.call("GET", `/api/learnings/${id}`, undefined, [404]);
  });

  test("add a learning by hand, personal or shared with a project", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("add");
    const tag = slug.replace(/-/g, "");
    await api.project(slug);
    await page.goto("/learnings");
    const form = page.getByRole("region", { name: "Add a learning" });
    await form.getByLabel("Text").fill(`${tag} releases go out on Tuesdays`);
    await form.getByLabel("Shared with").selectOption(slug);
    await form.getByLabel("Tags").fill("release");
    await form.getByRole("button", { name: "Add learning" }).click();
    await expect(form.getByRole("status")).toHaveText("Learning added.");
    await page.goto(`/learnings?project=${slug}`);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toContainText("releases go out on Tuesdays");
    await expect(cards(page)).toContainText("confirmed");
    await snap(page, testInfo, "learnings-added");

    // The same text again is not stored twice; a pasted log stops at a learning's limit in the box
    // (a form past the server's 1 MB was an error page, and what was typed was lost).
    await page.goto("/learnings");
    await form.getByLabel("Text").fill(`${tag} releases go out on Tuesdays`);
    await form.getByLabel("Shared with").selectOption(slug);
    await form.getByLabel("Tags").fill("release");
    await form.getByRole("button", { name: "Add learning" }).click();
    await expect(form.getByRole("status")).toHaveText("That learning is already there.");
    await page.goto(`/learnings?project=${slug}`);
    await expect(cards(page)).toHaveCount(1);
    await page.goto("/learnings");
    await form.getByLabel("Text").fill("x".repeat(1_100_000));
    expect(await form.getByLabel("Text").evaluate((el) => (el as HTMLTextAreaElement).value.length)).toBe(MAX_CONTENT_CHARS);
  });

  test("without JavaScript: search, confirm, edit and delete still work", async ({ browser }, testInfo) => {
    const api = new Api();
    const tag = unique("nojs").replace(/-/g, "");
    const id = await api.learning({ kind: "insight", content: `${tag} the staging database is reset nightly`, confirmed: false });
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: ADMIN_STATE });
    const page = await context.newPage();
    await page.goto("/learnings");
    await page.getByRole("searchbox", { name: "Search" }).fill(tag);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(cards(page)).toHaveCount(1);

    await card(page, tag).getByRole("button", { name: "Confirm" }).click();
    await expect(card(page, tag).locator(".badge-ok")).toHaveText("confirmed");
    await card(page, tag).getByText("Edit", { exact: true }).click();
    await card(page, tag).getByLabel("Text").fill(`${tag} the staging database is reset every night at 02:00`);
    await card(page, tag).getByRole("button", { name: "Save" }).click();
    await expect(card(page, tag)).toContainText("every night at 02:00");
    await snap(page, testInfo, "learnings-no-javascript");
    await card(page, tag).getByText("Delete…").click();
    await card(page, tag).getByRole("button", { name: "Delete learning" }).click();
    await expect(cards(page)).toHaveCount(0);
    await api.call("GET", `/api/learnings/${id}`, undefined, [404]);
    await context.close();
  });
  test("a query the pages refuse (a slug in capitals, a search or cursor too long) is explained, never an error page", async ({ page }) => {
    for (const path of ["/learnings?project=UPPER", `/learnings?q=${"x".repeat(2_001)}`, `/learnings?cursor=${"c".repeat(501)}`, `/proposals?cursor=${"c".repeat(501)}`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(500);
      await expect(page.getByRole("link", { name: /Back to/ }), path).toBeVisible();
    }
  });
});
