import type { Locator, Page } from "@playwright/test";
import { ADMIN_STATE, expect, snap, test, unique } from "./fixtures";
import { Api, createUser, signedInPage } from "./seed";

const api = () => new Api();

/** A project with proposals of known confidence, newest last. Returns their ids by content. */
async function seedQueue(slug: string, items: [string, number][]): Promise<Map<string, string>> {
  const a = api();
  await a.project(slug, `Review ${slug}`);
  const ids = new Map<string, string>();
  for (const [content, confidence] of items) ids.set(content, await a.propose({ content, confidence, project: slug }));
  return ids;
}

async function openQueue(page: Page, query: string): Promise<Locator> {
  await page.goto(`/proposals?${query}`);
  await expect(page.getByRole("heading", { name: "Proposals", level: 1 })).toBeVisible();
  const queue = page.getByTestId("review-queue");
  // The keys work once the page's JavaScript runs; until then every row has plain forms.
  await expect(queue).toHaveAttribute("data-ready", "true");
  return queue;
}

const rows = (page: Page) => page.getByRole("list", { name: "Pending proposals" }).getByRole("listitem");
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

test.describe("proposal review queue", () => {
  test("keyboard: j/k move, a accepts, u undoes, e edits then accepts, r rejects, x and bulk", async ({ page }, testInfo) => {
    const slug = unique("review");
    const tag = slug.replace(/-/g, "");
    const texts = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"].map((w) => `${w} ${tag} prefers small focused commits`);
    const confidences = [0.41, 0.93, 0.62, 0.88, 0.15, 0.7];
    const ids = await seedQueue(slug, texts.map((t, i) => [t, confidences[i]!]));
    const byConfidence = [...texts].sort((x, y) => confidences[texts.indexOf(y)]! - confidences[texts.indexOf(x)]!);

    await openQueue(page, `project=${slug}&sort=confidence`);
    await expect(page.getByTestId("pending-total")).toHaveText("6");
    await expect(page.getByTestId("proposal-content")).toHaveText(byConfidence);
    await snap(page, testInfo, "proposals-queue");

    // j / k move the current row.
    const current = page.locator('.queue-item[aria-current="true"]');
    await expect(current).toContainText(byConfidence[0]!);
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await expect(current).toContainText(byConfidence[2]!);
    await expect(current).toBeFocused();
    await page.keyboard.press("k");
    await expect(current).toContainText(byConfidence[1]!);

    // a accepts the current one, visibly at once, and moves on.
    await page.keyboard.press("a");
    await expect(row(page, byConfidence[1]!)).toHaveAttribute("data-state", "accepted");
    await expect(page.getByTestId("queue-status")).toHaveText("Accepted 1 proposal. Press u to undo.");
    // The header's pending count follows the decisions made on the page.
    await expect(page.getByTestId("pending-total")).toHaveText("5");
    await expect(current).toContainText(byConfidence[2]!);
    await expect.poll(() => api().proposalStatus(ids.get(byConfidence[1]!)!, slug)).toBe("accepted");
    await snap(page, testInfo, "proposals-accepted");

    // u takes it back: pending again on the server, and no learning left behind.
    await page.keyboard.press("u");
    await expect(row(page, byConfidence[1]!)).toHaveAttribute("data-state", "pending");
    await expect(page.getByTestId("queue-status")).toHaveText("Undone: 1 proposal back to pending.");
    await expect(page.getByTestId("pending-total")).toHaveText("6");
    await expect.poll(() => api().proposalStatus(ids.get(byConfidence[1]!)!, slug)).toBe("pending");
    const learnings = await api().call<{ items: { content: string }[] }>("GET", `/api/learnings?project=${slug}`);
    expect(learnings.items).toEqual([]);

    // e edits the current one; Ctrl+Enter accepts the edited text.
    await expect(current).toContainText(byConfidence[2]!);
    await page.keyboard.press("e");
    const box = page.getByLabel("Text to accept");
    await expect(box).toBeFocused();
    await box.fill(`${byConfidence[2]} (edited in review)`);
    await snap(page, testInfo, "proposals-editing");
    await page.keyboard.press("Control+Enter");
    await expect(row(page, "(edited in review)")).toHaveAttribute("data-state", "accepted");
    await expect
      .poll(async () => (await api().call<{ items: { content: string }[] }>("GET", `/api/learnings?project=${slug}`)).items.map((l) => l.content))
      .toEqual([`${byConfidence[2]} (edited in review)`]);

    // r rejects the current one (the next pending after the edited one).
    await expect(current).toContainText(byConfidence[3]!);
    await page.keyboard.press("r");
    await expect(row(page, byConfidence[3]!)).toHaveAttribute("data-state", "rejected");
    await expect.poll(() => api().proposalStatus(ids.get(byConfidence[3]!)!, slug)).toBe("rejected");

    // x selects; a then accepts the whole selection at once; u undoes that bulk decision as one.
    for (let i = 0; i < 4; i++) await page.keyboard.press("k");
    await expect(current).toContainText(byConfidence[0]!);
    await page.keyboard.press("x");
    await page.keyboard.press("j");
    await page.keyboard.press("x");
    await expect(page.getByRole("button", { name: "Accept selected (2)" })).toBeEnabled();
    await expect(row(page, byConfidence[0]!).getByRole("checkbox")).toBeChecked();
    await snap(page, testInfo, "proposals-selected");
    await page.keyboard.press("a");
    await expect(row(page, byConfidence[0]!)).toHaveAttribute("data-state", "accepted");
    await expect(row(page, byConfidence[1]!)).toHaveAttribute("data-state", "accepted");
    await expect(page.getByTestId("queue-status")).toHaveText("Accepted 2 proposals. Press u to undo.");
    await expect.poll(() => api().proposalStatus(ids.get(byConfidence[0]!)!, slug)).toBe("accepted");
    await page.keyboard.press("u");
    await expect(row(page, byConfidence[0]!)).toHaveAttribute("data-state", "pending");
    await expect(row(page, byConfidence[1]!)).toHaveAttribute("data-state", "pending");
    await expect.poll(() => api().proposalStatus(ids.get(byConfidence[0]!)!, slug)).toBe("pending");

    // Bulk reject with the toolbar: select all on the page, then the button.
    await page.getByLabel("Select all on this page").check();
    await expect(page.getByRole("button", { name: "Reject selected (4)" })).toBeEnabled();
    await page.getByRole("button", { name: "Reject selected (4)" }).click();
    for (const text of [byConfidence[0]!, byConfidence[1]!, byConfidence[4]!, byConfidence[5]!]) {
      await expect(row(page, text)).toHaveAttribute("data-state", "rejected");
    }
    await expect(page.getByText("Every proposal on this page is decided.")).toBeVisible();
    await expect(page.getByTestId("pending-total")).toHaveText("0");
    await snap(page, testInfo, "proposals-all-decided");
    for (const text of texts) await expect.poll(() => api().proposalStatus(ids.get(text)!, slug)).not.toBe("pending");

    // The row's own Undo button takes back one decision of a bulk one.
    await row(page, byConfidence[4]!).getByRole("button", { name: "Undo" }).click();
    await expect(row(page, byConfidence[4]!)).toHaveAttribute("data-state", "pending");
    await expect.poll(() => api().proposalStatus(ids.get(byConfidence[4]!)!, slug)).toBe("pending");

    // Leaving the page ends undo: a fresh load shows only what is still pending.
    await page.reload();
    await expect(page.getByTestId("pending-total")).toHaveText("1");
    await expect(page.getByTestId("proposal-content")).toHaveText([byConfidence[4]!]);
  });

  test("sorted by age, oldest or newest first", async ({ page }, testInfo) => {
    const slug = unique("ages");
    const tag = slug.replace(/-/g, "");
    const texts = ["first", "second", "third"].map((w) => `${w} ${tag} keeps migrations reversible`);
    await seedQueue(slug, [[texts[0]!, 0.2], [texts[1]!, 0.9], [texts[2]!, 0.5]]);
    await openQueue(page, `project=${slug}&sort=oldest`);
    await expect(page.getByTestId("proposal-content")).toHaveText(texts);
    await expect(page.getByLabel("Order")).toHaveValue("oldest");
    await openQueue(page, `project=${slug}&sort=newest`);
    await expect(page.getByTestId("proposal-content")).toHaveText([...texts].reverse());
    // The filter form is a plain GET form.
    await page.getByLabel("Order").selectOption("confidence");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/sort=confidence/);
    await expect(page.getByTestId("proposal-content")).toHaveText([texts[1]!, texts[2]!, texts[0]!]);
    await snap(page, testInfo, "proposals-by-confidence");
  });

  test("a card names the agent (and model) that proposed it, when its hook said", async ({ page }, testInfo) => {
    const slug = unique("agents");
    const tag = slug.replace(/-/g, "");
    await api().project(slug);
    await api().propose({ content: `${tag} deploys go through the staging bucket`, project: slug, confidence: 0.9, agent: "gemini", model: "gemini-2.5-pro" });
    await api().propose({ content: `${tag} tests run against a real database`, project: slug, confidence: 0.7, agent: "copilot" });
    await api().propose({ content: `${tag} migrations stay reversible`, project: slug, confidence: 0.5 });
    await openQueue(page, `project=${slug}`);
    await expect(row(page, "staging bucket").locator(".proposal-agent")).toHaveText("Gemini CLI · gemini-2.5-pro");
    await expect(row(page, "real database").locator(".proposal-agent")).toHaveText("Copilot CLI");
    await expect(row(page, "reversible").locator(".proposal-agent")).toHaveCount(0);
    await snap(page, testInfo, "proposals-by-agent");
  });

  test("a card shows its kind of lesson and the session lines it came from, quoted as text; an agent's own says so", async ({ page }, testInfo) => {
    const slug = unique("evidence");
    const tag = slug.replace(/-/g, "");
    await api().project(slug);
    const evidence = [
      { turn: 2, at: "2026-11-26T10:04:00.000Z", who: "tool" as const, text: "$ cargo test\nerror[E0432]: unresolved import `sqlx::sqlite`" },
      { turn: 3, at: "2026-11-26T10:05:30.000Z", who: "assistant" as const, text: "The sqlite backend is behind a feature: running `cargo test --features sqlite`." },
      { turn: 4, at: null, who: "user" as const, text: "<img src=x onerror=alert(1)> yes, that's it" },
    ];
    const fix = `${tag} cargo test needs --features sqlite`;
    const ask = `${tag} staging lives in eu-west-1`;
    const plain = `${tag} review every migration`;
    await api().propose({ kind: "insight", content: fix, project: slug, confidence: 0.9, lesson: "resolved_failure", evidence, method: "transcript" });
    await api().propose({ kind: "insight", content: ask, project: slug, confidence: 0.7, method: "agent", agent: "claude" });
    await api().propose({ content: plain, project: slug, confidence: 0.5 });
    const modelFound = `${tag} CI runs with TZ=UTC`;
    await api().propose({ kind: "insight", content: modelFound, project: slug, confidence: 0.6, lesson: "fact", evidence: [evidence[1]!], method: "model", agent: "codex" });
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await openQueue(page, `project=${slug}`);

    const card = row(page, fix);
    await expect(card.locator(".badge-lesson")).toHaveText("resolved failure");
    const details = card.locator("details.proposal-evidence");
    await expect(details).toHaveAttribute("open", "");
    await expect(details.locator("summary")).toHaveText("Evidence (3 lines)");
    const lines = details.locator(".evidence-line");
    await expect(lines).toHaveCount(3);
    await expect(lines.nth(0).locator(".evidence-who")).toHaveText("tool");
    await expect(lines.nth(0).locator(".evidence-when")).toHaveText("turn 2, 10:04 UTC");
    await expect(lines.nth(0).locator("time")).toHaveAttribute("datetime", "2026-11-26T10:04:00.000Z");
    await expect(lines.nth(1).locator(".evidence-who")).toHaveText("agent");
    await expect(lines.nth(1).locator(".evidence-text")).toHaveText(evidence[1]!.text);
    // What a transcript says is shown as the words it is, never run as markup.
    await expect(lines.nth(2).locator(".evidence-when")).toHaveText("turn 4");
    await expect(lines.nth(2).locator(".evidence-text")).toHaveText(evidence[2]!.text);
    await expect(card.locator("img")).toHaveCount(0);
    await expect(card.locator(".proposal-by-agent, .proposal-by-model")).toHaveCount(0);
    await snap(page, testInfo, "proposals-evidence");

    const own = row(page, ask);
    await expect(own.locator(".proposal-by-agent")).toHaveText("proposed by the agent");
    await expect(own.locator(".proposal-evidence")).toHaveCount(0);
    await expect(own.locator(".badge-lesson")).toHaveCount(0);
    await expect(row(page, plain).locator(".proposal-by-agent, .proposal-by-model, .badge-lesson, .proposal-evidence")).toHaveCount(0);
    // One the summariser's model found says so, with its lesson and evidence like the extractor's.
    await expect(row(page, modelFound).locator(".proposal-by-model")).toHaveText("found by a model in the session");
    await expect(row(page, modelFound).locator(".evidence-line")).toHaveCount(1);

    // The keys work as before with the evidence open; an edited accept keeps the evidence.
    const current = page.locator('.queue-item[aria-current="true"]');
    await expect(current).toContainText(fix);
    await page.keyboard.press("j");
    await expect(current).toContainText(ask);
    await page.keyboard.press("k");
    await expect(current).toContainText(fix);
    await page.keyboard.press("e");
    const box = card.getByLabel("Text to accept");
    await box.fill(`${fix}, because sqlite is an optional backend`);
    await page.keyboard.press("Control+Enter");
    await expect(card).toHaveAttribute("data-state", "accepted");
    await expect(current).toContainText(ask);
    await expect
      .poll(async () => (await api().call<{ items: { content: string; evidence: unknown }[] }>("GET", `/api/proposals?status=accepted&project=${slug}`)).items)
      .toEqual([expect.objectContaining({ content: `${fix}, because sqlite is an optional backend`, evidence })]);
    expect(dialogs).toEqual([]);
  });

  test("with 1,200 pending, pages of 50 load fast and the keys still work", async ({ browser }, testInfo) => {
    const user = createUser("bulk");
    const proposals = Array.from({ length: 1200 }, (_, i) => ({
      id: `bulk-${i}`,
      type: "insight",
      content: `Generated candidate number ${i} about module m${i}x${(i * 7919) % 1000}`,
      status: "pending",
      confidence: Math.round(((i * 37) % 100) + 0.5) / 100,
      extractedAt: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    }));
    const seed = { version: "1.0.0", identity: { principalName: user.name, aiName: "Bulk" }, state: { proposals } };
    const imported = await new Api(user.token).call<{ imported: { proposalsAdded: number } }>("POST", "/api/seed/import", seed);
    expect(imported.imported.proposalsAdded).toBe(1200);

    const page = await signedInPage(browser, user);
    const started = Date.now();
    const queue = await openQueue(page, "sort=confidence");
    const elapsed = Date.now() - started;
    await expect(page.getByTestId("pending-total")).toHaveText("1,200");
    await expect(rows(page)).toHaveCount(50);
    expect(elapsed, `first page in ${elapsed} ms`).toBeLessThan(5000);
    testInfo.annotations.push({ type: "timing", description: `1,200 pending: first page interactive in ${elapsed} ms` });
    await snap(page, testInfo, "proposals-1200-pending");

    // Keyset pages: the next page starts where this one ended, even after decisions on this one.
    const firstPage = await page.getByTestId("proposal-content").allTextContents();
    await page.keyboard.press("a");
    await expect(rows(page).first()).toHaveAttribute("data-state", "accepted");
    await page.getByRole("link", { name: "Next 50 →" }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page.getByTestId("proposal-content").first()).not.toHaveText(firstPage[0]!);
    await expect(queue).toHaveAttribute("data-ready", "true");
    await expect(rows(page)).toHaveCount(50);
    const secondPage = await page.getByTestId("proposal-content").allTextContents();
    expect(secondPage.filter((t) => firstPage.includes(t))).toEqual([]);
    await expect(page.getByTestId("pending-total")).toHaveText("1,199");
    await page.keyboard.press("j");
    await page.keyboard.press("r");
    await expect(rows(page).nth(1)).toHaveAttribute("data-state", "rejected");
    await page.context().close();
  });

  test("without JavaScript, each row's forms accept, edit and reject", async ({ browser }, testInfo) => {
    const slug = unique("nojs");
    const tag = slug.replace(/-/g, "");
    const [keep, edit, drop] = ["keep", "edit", "drop"].map((w) => `${w} ${tag} names branches after tickets`);
    await seedQueue(slug, [[keep!, 0.9], [edit!, 0.6], [drop!, 0.3]]);
    const context = await browser.newContext({ javaScriptEnabled: false, storageState: ADMIN_STATE });
    const page = await context.newPage();
    await page.goto(`/proposals?project=${slug}`);
    await expect(page.getByTestId("pending-total")).toHaveText("3");
    await snap(page, testInfo, "proposals-no-javascript");

    await row(page, keep!).getByRole("button", { name: "Accept", exact: true }).click();
    await expect(page.getByTestId("proposal-content")).toHaveText([edit!, drop!]);
    await row(page, drop!).getByRole("button", { name: "Reject" }).click();
    await expect(page.getByTestId("proposal-content")).toHaveText([edit!]);
    await row(page, edit!).getByText("Edit, then accept").click();
    await row(page, edit!).getByLabel("Text to accept").fill(`${edit} (edited without JS)`);
    await row(page, edit!).getByRole("button", { name: "Accept edited" }).click();
    await expect(page.getByText("Nothing to review.")).toBeVisible();
    const learnings = await api().call<{ items: { content: string }[] }>("GET", `/api/learnings?project=${slug}`);
    expect(learnings.items.map((l) => l.content).sort()).toEqual([`${edit} (edited without JS)`, keep!].sort());
    await context.close();
  });
});
