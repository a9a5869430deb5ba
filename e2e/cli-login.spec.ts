import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { startCli, type RunningCli } from "../test/support/cli";
import { ADMIN, BASE_URL, expect, signIn, snap, test, unique } from "./fixtures";
import { Api } from "./seed";

// `baton login` as a person does it: the real CLI as a child process prints a code and a URL; the
// person opens it in Chromium (signing in first when needed), checks the code, chooses the token and
// approves or denies; the CLI then signs in, or says it was denied.

/** A HOME of its own with no display (nothing is opened, as over SSH), removed after the test. */
function freshHome(): { home: string; env: Record<string, string>; remove: () => void } {
  const home = mkdtempSync(path.join(tmpdir(), "baton-e2e-login-"));
  return { home, env: { HOME: home, XDG_CONFIG_HOME: "", DISPLAY: "", WAYLAND_DISPLAY: "" }, remove: () => rmSync(home, { recursive: true, force: true }) };
}

async function startLogin(env: Record<string, string>, cwd: string): Promise<{ cli: RunningCli; code: string; url: string }> {
  const cli = startCli(["login", "--url", BASE_URL], { env, cwd });
  const [, code] = await cli.stderrMatch(/approve the code ([A-Z]{4}-[A-Z]{4}):/);
  const [, url] = await cli.stderrMatch(/^ {2}(http\S+)$/m);
  return { cli, code: code!, url: url! };
}

test.describe("baton login, approved in the browser", () => {
  test("the signed-in admin approves the code with a name, read scope and one project; the CLI keeps the token and says who it is", async ({ page }, testInfo) => {
    const slug = unique("login");
    await new Api().project(slug);
    const { home, env, remove } = freshHome();
    try {
      const { cli, code, url } = await startLogin(env, home);
      await page.goto(url);
      await expect(page.getByTestId("user-code")).toHaveText(code);
      await expect(page.getByTestId("login-machine")).toContainText(`Asked by ${hostname()} from 127.0.0.1`);
      await expect(page.getByLabel("Token name")).toHaveValue(`${hostname()} (baton login)`);
      await page.getByLabel("Token name").fill("e2e laptop");
      await page.getByRole("radio", { name: "read only" }).check();
      await page.getByRole("checkbox", { name: `only ${slug} (${slug})` }).check();
      await snap(page, testInfo, "login-approve");
      await page.getByRole("button", { name: "Approve" }).click();
      await expect(page.getByRole("main").getByRole("status")).toContainText("Approved.");

      const result = await cli.done;
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, url: BASE_URL, user: { name: ADMIN.name, email: ADMIN.email }, token: { name: "e2e laptop", scope: "read", projects: [slug] } });
      const file = path.join(home, ".config", "baton", "config.json");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const { token } = JSON.parse(readFileSync(file, "utf8")) as { token: string };
      expect(token).toMatch(/^baton_/);

      const whoami = await startCli(["whoami"], { env, cwd: home }).done;
      expect(JSON.parse(whoami.stdout)).toMatchObject({ user: { email: ADMIN.email }, token: { name: "e2e laptop", scope: "read", projects: [slug] } });
      await page.goto("/settings/tokens");
      await expect(page.getByRole("row").filter({ hasText: "e2e laptop" })).toContainText(slug);

      // Reloading the page: the code is spent.
      await page.goto(url);
      await expect(page.getByRole("main").getByRole("alert")).toContainText(`The code ${code} was answered already`);
    } finally {
      remove();
    }
  });

  test.describe("signed out", () => {
    test.use({ storageState: { cookies: [], origins: [] } });

    test("the link keeps its code through the sign-in page; Deny ends the CLI with no token", async ({ page }, testInfo) => {
      const { home, env, remove } = freshHome();
      try {
        const { cli, code, url } = await startLogin(env, home);
        await page.goto(url);
        await signIn(page);
        await expect(page).toHaveURL(url);
        await expect(page.getByTestId("user-code")).toHaveText(code);
        await page.getByRole("button", { name: "Deny" }).click();
        await expect(page.getByRole("main").getByRole("status")).toContainText("Denied.");
        await snap(page, testInfo, "login-denied");
        const result = await cli.done;
        expect(result.code).toBe(6);
        expect(result.stderr).toContain("denied in the browser");

        // A code typed by hand that matches nothing says so, and offers the box again.
        await page.goto("/connect/device");
        await page.getByLabel("The code your terminal shows").fill("bbbb bbbb");
        await page.getByRole("button", { name: "Continue" }).click();
        await expect(page.getByRole("main").getByRole("alert")).toContainText("No sign-in code BBBB-BBBB");
      } finally {
        remove();
      }
    });
  });
});
