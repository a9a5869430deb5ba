import { ADMIN, expect, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

const doc = (id: string, title: string, extra: string) => `---\nid: ${id}\n${extra}\n---\n# ${title}\n\nDo the thing.\n`;

test.describe("a project's pages", () => {
  test("overview: handoffs, pending proposals, queued sessions, context served as a chart", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("overview");
    await page.goto(`/projects/${slug}`);
    await expect(page.getByRole("heading", { name: "Not found", level: 1 })).toBeVisible();

    await api.project(slug, "Overview project");
    await page.goto(`/projects/${slug}`);
    await expect(page.getByRole("heading", { name: "Overview project", level: 1 })).toBeVisible();
    await expect(page.getByText("No handoffs yet.")).toBeVisible();
    await expect(page.getByText("No context served in the last 30 days.")).toBeVisible();
    await expect(page.getByText("The queue is empty.")).toBeVisible();
    await snap(page, testInfo, "project-overview-empty");

    await api.handoff(slug, { markdown: "## Done\n- wired the board\n\n## Open\n- the chart", branch: "main", author: "ana" });
    await api.propose({ content: `${slug} prefers server components`, project: slug, confidence: 0.8 });
    await api.propose({ content: `${slug} keeps actions thin and validated`, project: slug, confidence: 0.6 });
    await api.session(slug, doc(`${slug}-q1`, "Queue one", "priority: high\nfiles: [src/a.ts]"));
    await api.session(slug, doc(`${slug}-q2`, "Queue two", "priority: low"));
    await api.claim(`${slug}-q2`);
    for (let i = 0; i < 3; i++) await api.context({ project: slug, budget: String(1000 + i * 500) });

    // The served log is written in the background about once a second.
    await expect
      .poll(async () => {
        await page.reload();
        return page.getByTestId("stat-contexts").textContent();
      })
      .toBe("3");
    await expect(page.getByTestId("stat-proposals")).toHaveText("2");
    await expect(page.getByTestId("stat-queued")).toHaveText("1");
    await expect(page.getByTestId("stat-doing")).toHaveText("1");
    expect(Number((await page.getByTestId("stat-tokens").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
    // Today's bar carries the count; the chart is SVG drawn on the server.
    await expect(page.getByTestId("chart-contexts").locator("rect.chart-bar").last()).toHaveAttribute("data-value", "3");
    await expect(page.getByTestId("chart-tokens").locator("rect.chart-bar")).toHaveCount(30);
    await expect(page.getByRole("region", { name: "Latest handoffs" }).getByTestId("handoff")).toContainText("wired the board");
    await expect(page.getByRole("region", { name: "Pending proposals" })).toContainText("prefers server components");
    await expect(page.getByRole("region", { name: "Queued sessions" })).toContainText(`${slug}-q1`);
    await snap(page, testInfo, "project-overview");

    await page.getByRole("link", { name: "Review 2 →" }).click();
    await expect(page).toHaveURL(new RegExp(`/proposals\\?project=${slug}`));
    await expect(page.getByTestId("pending-total")).toHaveText("2");
  });

  test("handoffs timeline: author, agent, branch, time; markdown rendered, stored HTML never run", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("handoffs");
    await api.project(slug);
    await api.handoff(slug, { markdown: "First handoff on main.", branch: "main", author: "ana" });
    const hostile = [
      "## Summary",
      "",
      "- **Bold** step with `code`",
      "- [a link](https://example.com/docs) and [a trap](javascript:alert(1))",
      "",
      '<script>window.__pwned = true</script>',
      '<img src="x" onerror="window.__pwned = true">',
      "",
      "| file | change |",
      "| --- | ---: |",
      "| a.ts | new |",
    ].join("\n");
    await api.handoff(slug, { markdown: hostile, branch: "feat/board", author: "bo", sessionId: `${slug}-s2`, agent: "codex", model: "gpt-5.1" });

    await page.goto(`/projects/${slug}/handoffs`);
    const entries = page.getByRole("list", { name: "Handoffs, newest first" }).getByTestId("handoff");
    await expect(entries).toHaveCount(2);
    const newest = entries.first();
    // The author is whoever's token wrote it; the name the client sent is shown beside it, never instead.
    await expect(newest.locator(".handoff-author")).toHaveText(ADMIN.name);
    await expect(newest.locator(".handoff-signed-as")).toHaveText("signed as bo");
    // The agent that wrote it (and its model), as its hook said; a handoff that did not say shows none.
    await expect(newest.locator(".handoff-agent")).toHaveText("Codex CLI · gpt-5.1");
    await expect(entries.last().locator(".handoff-agent")).toHaveCount(0);
    await expect(newest).toContainText("branch feat/board");
    await expect(newest).toContainText(`session ${slug}-s2`);
    await expect(newest.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
    await expect(newest.getByRole("heading", { name: "Summary" })).toBeVisible();
    await expect(newest.locator("strong", { hasText: "Bold" })).toBeVisible();
    await expect(newest.getByRole("table")).toContainText("a.ts");
    await expect(newest.getByRole("link", { name: "a link" })).toHaveAttribute("href", "https://example.com/docs");
    // A column's alignment is a class (the CSP allows no inline style).
    await expect(newest.locator("td.md-align-right")).toHaveText("new");
    // The javascript: URL is no link, only its text; the raw HTML shows as text and never runs.
    await expect(newest.getByRole("link", { name: "a trap" })).toHaveCount(0);
    await expect(newest).toContainText("[a trap](javascript:alert(1))");
    await expect(newest).toContainText("<script>window.__pwned = true</script>");
    await expect(newest.locator("script, img")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await snap(page, testInfo, "handoffs-timeline");

    // A member's handoff nested 5,000 deep (the parser before overflowed its stack: the page was a 500),
    // 40 KB of emphasis marks (it held the server 15 s), and one past what is rendered (shown as text).
    await api.handoff(slug, { markdown: `${">".repeat(5000)} deep`, branch: "deep" });
    await api.handoff(slug, { markdown: `${"_*".repeat(20_000)} marks`, branch: "marks" });
    await api.handoff(slug, { markdown: `# Long\n\n${"A line of a long handoff.\n".repeat(2_200)}`, branch: "long" });
    await page.goto(`/projects/${slug}/handoffs`);
    await expect(entries).toHaveCount(5);
    await expect(entries.first()).toContainText("Shown as plain text");
    await expect(entries.first().locator("pre")).toContainText("# Long");
    await expect(entries.nth(1)).toContainText("marks");
    await expect(entries.nth(2)).toContainText("deep");

    await page.getByLabel("Branch").fill("main");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(entries).toHaveCount(1);
    await expect(entries).toContainText("First handoff on main.");
    await page.getByLabel("Branch").fill("nope");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByText("No handoff on nope.")).toBeVisible();
  });

  test("a page renders so much markdown, then plain text: a member's many long handoffs cannot hold the server", async ({ page }) => {
    const api = new Api();
    const slug = unique("pagefull");
    await api.project(slug);
    // Eleven handoffs of 19,000 characters, each under the one-text limit: ten fill the page's 200,000.
    const long = (i: number) => `## Handoff ${i}\n\n${"- a step of a long session, with **bold** words\n".repeat(390)}`.slice(0, 19_000);
    for (let i = 1; i <= 11; i++) await api.handoff(slug, { markdown: long(i), branch: `b${i}` });
    await page.goto(`/projects/${slug}/handoffs`);
    const entries = page.getByRole("list", { name: "Handoffs, newest first" }).getByTestId("handoff");
    await expect(entries).toHaveCount(11);
    await expect(entries.first().getByRole("heading", { name: "Handoff 11" })).toBeVisible();
    await expect(entries.nth(9).getByRole("heading", { name: "Handoff 2" })).toBeVisible();
    await expect(entries.nth(10)).toContainText("Shown as plain text: this page has rendered");
    await expect(entries.nth(10).locator("pre")).toContainText("## Handoff 1");
  });

  test("session board: to do, doing, done; who claimed what when; the files each lists", async ({ page }, testInfo) => {
    const api = new Api();
    const slug = unique("board");
    await api.project(slug);
    await page.goto(`/projects/${slug}/sessions`);
    await expect(page.getByTestId("column-todo")).toContainText("Nothing queued.");
    await api.session(slug, doc(`${slug}-a`, "Write the board", "priority: critical\nbranch: feat/board\nspecs: [docs/board.md]\nfiles: [app/board.tsx, lib/board.ts]\ntags: [ui]"));
    await api.session(slug, doc(`${slug}-b`, "Fix the chart", "priority: medium\nfiles: [components/chart.tsx]"));
    await api.session(slug, doc(`${slug}-c`, "Ship it", "priority: low"));
    await api.claim(`${slug}-b`);
    await api.claim(`${slug}-c`);
    await api.complete(`${slug}-c`);

    await page.reload();
    const todo = page.getByTestId("column-todo");
    const doing = page.getByTestId("column-doing");
    const done = page.getByTestId("column-done");
    await expect(todo.getByTestId("session")).toHaveCount(1);
    const a = todo.getByTestId("session");
    await expect(a.getByRole("heading", { name: "Write the board" })).toBeVisible();
    await expect(a).toContainText("priority critical");
    await expect(a).toContainText("branch feat/board");
    await expect(a.getByRole("list", { name: "Files it lists" }).getByRole("listitem")).toHaveText(["spec docs/board.md", "file app/board.tsx", "file lib/board.ts"]);
    await expect(doing.getByTestId("session")).toContainText("Claimed by Ada Admin (ada@example.test)");
    await expect(doing.getByTestId("session")).toContainText("file components/chart.tsx");
    await expect(done.getByTestId("session")).toContainText("Ship it");
    await expect(done.getByTestId("session")).toContainText(/done (just now|\d+ min ago)/);
    await snap(page, testInfo, "session-board");
  });
});
