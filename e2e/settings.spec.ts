import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { homeEnv, makeRepo, runBaton } from "../test/fixtures/cli/cli-env";
import { tempDir } from "../test/support/server";
import { ADMIN, BASE_URL, expect, snap, test, unique } from "./fixtures";
import { Api, createUser } from "./seed";

const memberRow = (page: Page, email: string) => page.getByRole("table", { name: "Members" }).getByRole("row").filter({ hasText: email });

test.describe("settings", () => {
  test("projects: create one, then add and remove matchers that route contexts to it", async ({ page }, testInfo) => {
    const slug = unique("settings");
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/settings\/projects$/);
    await expect(page.getByRole("link", { name: "Projects and members" })).toHaveAttribute("aria-current", "page");
    const create = page.getByRole("region", { name: "New project" });
    await create.getByLabel("Name").fill("Settings project");
    await create.getByLabel("Slug").fill(slug);
    await create.getByRole("button", { name: "Create project" }).click();
    await expect(create.getByRole("status")).toHaveText(`Project ${slug} created.`);
    await page.getByRole("link", { name: `Members and matchers of ${slug}` }).click();
    await expect(page.getByRole("heading", { name: "Settings project: settings", level: 1 })).toBeVisible();
    await expect(page.getByText("No matchers.")).toBeVisible();

    await page.getByLabel("Match on").selectOption("remote");
    await page.getByLabel("Pattern").fill(`https://github.com/acme/${slug}.git`);
    await page.getByRole("button", { name: "Add matcher" }).click();
    await expect(page.getByRole("status")).toHaveText(`Matcher added: https://github.com/acme/${slug}.git.`);
    await page.getByLabel("Match on").selectOption("cwd");
    await page.getByLabel("Pattern").fill(`src/${slug}-dir/`);
    await page.getByRole("button", { name: "Add matcher" }).click();
    const matchers = page.getByRole("table", { name: "Matchers" });
    await expect(matchers.getByRole("row")).toHaveCount(3);
    await expect(matchers).toContainText(`src/${slug}-dir`);
    // The same one twice is refused.
    await page.getByLabel("Match on").selectOption("cwd");
    await page.getByLabel("Pattern").fill(`src/${slug}-dir`);
    await page.getByRole("button", { name: "Add matcher" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "has that directory matcher already" })).toBeVisible();
    await snap(page, testInfo, "settings-project-matchers");

    // The matchers work: a hook that sends only a remote or a directory gets this project's context.
    const api = new Api();
    expect((await api.context({ remote: `git@github.com:acme/${slug}.git` })) as unknown).toMatchObject({ project: { slug } });
    expect((await api.context({ cwd: `/home/ada/src/${slug}-dir` })) as unknown).toMatchObject({ project: { slug } });

    await matchers.getByRole("button", { name: `Remove src/${slug}-dir` }).click();
    await expect(matchers.getByRole("row")).toHaveCount(2);
    expect((await api.context({ cwd: `/home/ada/src/${slug}-dir` })) as unknown).toMatchObject({ project: null });
  });

  test("members: invite by email with the same answer for any email, accept, change role, keep the last owner", async ({ page }, testInfo) => {
    const slug = unique("team");
    await new Api().project(slug, "Team project");
    const bo = createUser("bo");
    await page.goto(`/settings/projects/${slug}`);
    await expect(memberRow(page, ADMIN.email)).toContainText("(you)");
    const form = page.getByRole("region", { name: "Members" });
    const pending = page.getByRole("table", { name: "Pending invitations" });

    // Someone without an account and someone with one get the same answer: the form tells nobody who has an account.
    await form.getByLabel("Email").fill("nobody-yet@example.test");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect(form.getByRole("status")).toContainText("Invitation sent to nobody-yet@example.test.");
    await form.getByLabel("Email").fill(bo.email);
    await form.getByLabel("Role", { exact: true }).selectOption("viewer");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect(form.getByRole("status")).toContainText(`Invitation sent to ${bo.email}.`);
    await expect(pending.getByRole("row")).toHaveCount(3);
    await expect(memberRow(page, bo.email)).toHaveCount(0);
    await snap(page, testInfo, "settings-members");

    // Invited is not a member: bo does not see the project until accepting.
    await new Api(bo.token).call("GET", `/api/projects/${slug}`, undefined, [404]);
    await pending.getByRole("button", { name: "Revoke the invitation of nobody-yet@example.test" }).click();
    await expect(pending.getByRole("row")).toHaveCount(2);
    await new Api(bo.token).call("POST", `/api/invites/${slug}/accept`);
    await page.reload();
    await expect(memberRow(page, bo.email).getByLabel(`Role of ${bo.email}`)).toHaveValue("viewer");
    await expect(pending).toHaveCount(0);

    const projects = await new Api(bo.token).call<{ items: { slug: string; role: string }[] }>("GET", "/api/projects");
    expect(projects.items.find((p) => p.slug === slug)?.role).toBe("viewer");

    await memberRow(page, bo.email).getByLabel(`Role of ${bo.email}`).selectOption("owner");
    await memberRow(page, bo.email).getByRole("button", { name: "Change role" }).click();
    await expect.poll(async () => (await new Api(bo.token).call<{ project: { role: string } }>("GET", `/api/projects/${slug}`)).project.role).toBe("owner");
    await page.reload();
    await memberRow(page, bo.email).getByLabel(`Role of ${bo.email}`).selectOption("member");
    await memberRow(page, bo.email).getByRole("button", { name: "Change role" }).click();
    await expect.poll(async () => (await new Api(bo.token).call<{ project: { role: string } }>("GET", `/api/projects/${slug}`)).project.role).toBe("member");

    // The only owner can neither step down nor leave.
    await page.reload();
    await memberRow(page, ADMIN.email).getByLabel(`Role of ${ADMIN.email}`).selectOption("member");
    await memberRow(page, ADMIN.email).getByRole("button", { name: "Change role" }).click();
    await expect(memberRow(page, ADMIN.email).getByRole("alert")).toContainText("needs at least one owner");
    await memberRow(page, ADMIN.email).getByRole("button", { name: `Remove ${ADMIN.email}` }).click();
    await expect(memberRow(page, ADMIN.email).getByRole("alert").filter({ hasText: "before removing the last one" })).toBeVisible();
    await page.getByRole("button", { name: `Leave ${slug}` }).click();
    await expect(page.getByRole("region", { name: "Leave this project" }).getByRole("alert")).toContainText("You are the last owner");

    await memberRow(page, bo.email).getByRole("button", { name: `Remove ${bo.email}` }).click();
    await expect(memberRow(page, bo.email)).toHaveCount(0);
    await new Api(bo.token).call("GET", `/api/projects/${slug}`, undefined, [404]);
  });

  test("connect: the hook and MCP snippets, filled with this server's address", async ({ page }, testInfo) => {
    await page.goto("/settings/connect");
    await expect(page.getByRole("heading", { name: "Connect an agent", level: 1 })).toBeVisible();
    await expect(page.getByTestId("server-origin")).toHaveText(BASE_URL);
    const hooks = JSON.parse((await page.getByTestId("snippet-hooks").textContent())!);
    expect(hooks).toEqual({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: "baton hook session-start", timeout: 30 }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "baton hook prompt", timeout: 10 }] }],
        PreCompact: [{ hooks: [{ type: "command", command: "baton hook pre-compact", timeout: 30 }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: "baton hook session-end" }] }],
      },
    });
    // The entries "to paste by hand" are exactly what `baton install claude` writes, time limits included.
    const tmp = tempDir("baton-e2e-connect-");
    try {
      const repo = makeRepo(path.join(tmp.dir, "repo"));
      const install = await runBaton(["install", "claude", "--command", "baton", "--url", BASE_URL], { cwd: repo, env: homeEnv(path.join(tmp.dir, "home")) });
      expect(install.code, install.stderr).toBe(0);
      expect(JSON.parse(readFileSync(path.join(repo, ".claude", "settings.json"), "utf8"))).toEqual(hooks);
    } finally {
      tmp.remove();
    }
    // The CLI and the plugin come from this server, never from an npm package name Baton does not own.
    await expect(page.getByTestId("snippet-install")).toHaveText(`curl -fsSL ${BASE_URL}/install.sh | sh`);
    await expect(page.getByTestId("snippet-plugin")).toContainText(`claude plugin install baton@baton --config url=${BASE_URL}`);
    await expect(page.getByTestId("snippet-install-claude")).toHaveText("baton install claude --dry-run");
    await expect(page.getByTestId("snippet-install-agents")).toHaveText(["codex", "gemini", "copilot", "opencode"].map((a) => `baton install ${a}`).concat("baton doctor").join("\n"));
    await expect(page.getByRole("main")).not.toContainText("npx");
    const mcp = JSON.parse((await page.getByTestId("snippet-mcp").textContent())!);
    expect(mcp).toEqual({ mcpServers: { baton: { type: "stdio", command: "baton", args: ["mcp"] } } });
    await expect(page.getByTestId("snippet-login")).toHaveText("baton login");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Copy .mcp.json" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(mcp);
    await snap(page, testInfo, "settings-connect");

    // The token page sits under Settings and still works.
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API tokens" }).click();
    await expect(page.getByRole("heading", { name: "API tokens", level: 1 })).toBeVisible();
  });
});
