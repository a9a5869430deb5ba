import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { startCli, type CliResult } from "../test/support/cli";
import { runProcess } from "../test/support/run-process";
import { startServer, tempDir, type RunningServer } from "../test/support/server";
import { makeTestCa, type TestTls } from "../test/support/test-ca";
import { fixture, hookContext, homeEnv, makeRepo } from "../test/fixtures/cli/cli-env";
import { createProject, expect, snap, test, unique } from "./fixtures";

// Issue 24, as a team goes through it, with real parts only: a Baton serving HTTPS itself with a
// certificate from the team's own CA (made here with openssl), on a fresh database of its own (the
// suite's shared server speaks plain HTTP). The owner sets it up in Chromium, makes a project with a
// pinned learning and invites a new person, who joins through the link, installs the CLI from the
// server as the README says (curl trusting the CA; install.sh records it as caFile), runs `baton
// login` and approves it in their own browser, installs the Claude Code hooks into their repository,
// and gets the project's context from the SessionStart hook, run as settings.json says, over HTTPS.
//
// Chromium does not trust the test's CA (it has no per-context trust store): each context here is
// made with ignoreHTTPSErrors, and the test checks that the certificate it was served is the CA's.
// The CLI trusts the CA through caFile alone (NODE_TLS_REJECT_UNAUTHORIZED stays 1, no NODE_EXTRA_CA_CERTS).

// Made in the worker that runs the test (the runner also loads this file, only to list the test).
let tmp: ReturnType<typeof tempDir>;
let server: RunningServer | undefined;
const contexts: BrowserContext[] = [];
test.beforeAll(() => {
  tmp = tempDir("baton-e2e-walk-");
});
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  await server?.stop();
  tmp?.remove();
});

const OWNER = { name: "Olga Owner", email: "olga@example.test", password: "the owner's own long password" };
const NEWCOMER = { name: "Nova Newcomer", email: "nova@example.test", password: "nova's own long password" };
/** The CA's name as test/support/test-ca.ts gives it. */
const CA_NAME = "Baton Test Team CA";

/** A browser context of its own at the HTTPS server, signed in as nobody. */
async function httpsContext(browser: Browser, url: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: url, ignoreHTTPSErrors: true, storageState: { cookies: [], origins: [] } });
  contexts.push(context);
  return context;
}

/** The new person's machine: a HOME of their own, no display (nothing is opened), and ~/.local/bin first on PATH. */
function machineEnv(home: string): Record<string, string> {
  const bin = [path.join(home, ".local", "bin"), path.dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
  // Certificates are checked (whatever the outer shell says): the CA is trusted through caFile or not at all.
  return homeEnv(home, { PATH: bin, DISPLAY: "", WAYLAND_DISPLAY: "", NODE_TLS_REJECT_UNAUTHORIZED: "1" });
}

/** A command line as a shell runs it on that machine (install.sh's pipe, a hook command from settings.json). */
function shell(command: string, env: Record<string, string>, options: { cwd?: string; input?: string } = {}): Promise<CliResult> {
  return runProcess("sh", ["-c", command], { env, cwd: options.cwd, input: options.input });
}

const ok = (result: CliResult, what: string) => expect(result.code, `${what}:\n${result.stderr}\n${result.stdout}`).toBe(0);

test("a team over HTTPS: the owner invites, the new person joins, signs the CLI in and gets the project's context in Claude Code's hook", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const slug = unique("walk");
  const projectName = "Walk-through";
  const pinned = `${slug.replace(/-/g, "")} releases are tagged from main only, never from a branch`;
  let tls: TestTls;
  let owner: Page;
  let link = "";
  let newcomer: Page;
  const home = path.join(tmp.dir, "nova-home");
  const env = machineEnv(home);
  const baton = path.join(home, ".local", "bin", "baton");

  await test.step("1. a Baton serving HTTPS with a certificate of the team's own CA; the owner sets it up in Chromium", async () => {
    mkdirSync(path.join(tmp.dir, "ca"));
    tls = makeTestCa(path.join(tmp.dir, "ca"));
    server = await startServer({ databaseUrl: `file:${tmp.dir}/walk.db`, tls });
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

    owner = await (await httpsContext(browser, server.url)).newPage();
    const first = await owner.goto("/");
    expect(await first!.securityDetails()).toMatchObject({ issuer: CA_NAME, subjectName: "localhost" });
    expect(first!.headers()["strict-transport-security"]).toBe("max-age=31536000");
    await expect(owner).toHaveURL(/\/setup$/);
    await owner.getByLabel("Your name").fill(OWNER.name);
    await owner.getByLabel("Email").fill(OWNER.email);
    await owner.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await owner.getByLabel("Password again").fill(OWNER.password);
    await owner.getByRole("button", { name: "Create the admin account" }).click();
    await expect(owner.getByTestId("signed-in-as")).toHaveText(OWNER.email);
    // The session cookie is Secure and __Secure- prefixed: the browser keeps it for https only.
    const cookies = await owner.context().cookies();
    expect(cookies.find((c) => c.name === "__Secure-better-auth.session_token")).toMatchObject({ secure: true });
  });

  await test.step("2. the owner makes a project with a pinned learning, invites the new person's email and copies the link", async () => {
    await createProject(owner, projectName, slug);

    await owner.goto("/learnings");
    const form = owner.getByRole("region", { name: "Add a learning" });
    await form.getByLabel("Text").fill(pinned);
    await form.getByLabel("Shared with").selectOption(slug);
    await form.getByRole("button", { name: "Add learning" }).click();
    await expect(form.getByRole("status")).toHaveText("Learning added.");
    await owner.goto(`/learnings?project=${slug}`);
    const card = owner.getByTestId("learning").filter({ hasText: pinned });
    await card.getByRole("button", { name: "Pin", exact: true }).click();
    await expect(card.locator(".badge-pinned")).toHaveText("pinned");

    await owner.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await owner.goto(`/settings/projects/${slug}`);
    const members = owner.getByRole("region", { name: "Members" });
    await members.getByLabel("Email").fill(NEWCOMER.email);
    await members.getByLabel("Role", { exact: true }).selectOption("member");
    await members.getByRole("button", { name: "Invite" }).click();
    await expect(members.getByRole("status")).toContainText(`Invitation sent to ${NEWCOMER.email}. Copy the link`);
    await members.getByRole("button", { name: "Copy" }).click();
    await expect(members.getByRole("button", { name: "Copied" })).toBeVisible();
    link = await owner.evaluate(() => navigator.clipboard.readText());
    // The link names the address the owner reached, https included (no BATON_BASE_URL is set).
    expect(link).toMatch(new RegExp(`^${server!.url.replace(/\./g, "\\.")}/join/join_[\\w-]{43}$`));
    await snap(owner, testInfo, "walk-invitation-link");
  });

  await test.step("3. the new person opens the link in a browser of their own, creates an account with their own password, and lands in the project", async () => {
    newcomer = await (await httpsContext(browser, server!.url)).newPage();
    await newcomer.goto(link);
    await expect(newcomer.getByRole("heading", { name: `Join ${projectName}` })).toBeVisible();
    await expect(newcomer.getByLabel("Email")).toHaveValue(NEWCOMER.email);
    await newcomer.getByLabel("Your name").fill(NEWCOMER.name);
    await newcomer.getByLabel("Password", { exact: true }).fill(NEWCOMER.password);
    await newcomer.getByLabel("Password again").fill(NEWCOMER.password);
    await newcomer.getByRole("button", { name: "Create my account and join" }).click();

    await expect(newcomer).toHaveURL(`${server!.url}/projects/${slug}`);
    await expect(newcomer.getByTestId("signed-in-as")).toHaveText(NEWCOMER.email);
    await expect(newcomer.getByRole("heading", { name: projectName, exact: true })).toBeVisible();
    await snap(newcomer, testInfo, "walk-newcomer-in-project");
  });

  await test.step("4. on their machine: the CLI from the server (curl trusting the CA), `baton login` approved in their browser, `baton whoami`", async () => {
    // The Connect page's line for a team's own CA, run as shown in the folder holding the team's CA file:
    // curl gets the CA, install.sh the same file (kept as caFile).
    await newcomer.goto(`${server!.url}/settings/connect`);
    const shown = (await newcomer.getByTestId("install-with-ca").textContent())!;
    expect(shown).toBe(`curl --cacert team-ca.pem -fsSL ${server!.url}/install.sh | BATON_CA_FILE="$PWD/team-ca.pem" sh`);
    const caFile = path.join(home, "team-ca.pem");
    copyFileSync(tls.caFile, caFile);
    const install = await shell(shown, env, { cwd: home });
    ok(install, "install.sh");
    const configFile = path.join(home, ".config", "baton", "config.json");
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({ url: server!.url, caFile });

    const login = startCli(["login", "--url", server!.url], { env, cwd: home, script: baton });
    const [, code] = await login.stderrMatch(/approve the code ([A-Z]{4}-[A-Z]{4}):/);
    const [, url] = await login.stderrMatch(/^ {2}(https:\S+)$/m);
    expect(url).toBe(`${server!.url}/connect/device?code=${code}`);
    await newcomer.goto(url!);
    await expect(newcomer.getByTestId("user-code")).toHaveText(code!);
    await newcomer.getByLabel("Token name").fill("nova laptop");
    await snap(newcomer, testInfo, "walk-login-approve");
    await newcomer.getByRole("button", { name: "Approve" }).click();
    await expect(newcomer.getByRole("main").getByRole("status")).toContainText("Approved.");

    const signedIn = await login.done;
    ok(signedIn, "baton login");
    expect(JSON.parse(signedIn.stdout)).toMatchObject({ ok: true, url: server!.url, user: { name: NEWCOMER.name, email: NEWCOMER.email }, token: { name: "nova laptop", scope: "write" } });
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({ url: server!.url, caFile, token: expect.stringMatching(/^baton_/) });

    const whoami = await runProcess(baton, ["whoami"], { env, cwd: home });
    ok(whoami, "baton whoami");
    expect(JSON.parse(whoami.stdout)).toMatchObject({ url: server!.url, user: { name: NEWCOMER.name, email: NEWCOMER.email }, token: { name: "nova laptop" } });
  });

  await test.step("5. `baton install claude` in their repository naming the project; the SessionStart hook, run as settings.json says, brings the pinned learning over HTTPS", async () => {
    const repo = makeRepo(path.join(tmp.dir, "src", "walk-app"), { commits: ["Start"] });
    writeFileSync(path.join(repo, ".baton.json"), JSON.stringify({ project: slug }));
    const install = await runProcess(baton, ["install", "claude"], { env, cwd: repo });
    ok(install, "baton install claude");

    const settings = JSON.parse(readFileSync(path.join(repo, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    const [command] = settings.hooks.SessionStart!.flatMap((entry) => entry.hooks.map((hook) => hook.command));
    // `baton` as install.sh put it on PATH: the same line for everyone on the team.
    expect(command).toBe("baton hook session-start");
    // As Claude Code runs it: the command through a shell, in the repository, its JSON on stdin.
    const input = JSON.stringify({ ...JSON.parse(fixture("hooks/session-start.json")), cwd: repo, session_id: `walk-${slug}` });
    const hook = await shell(command!, env, { cwd: repo, input });
    ok(hook, "the SessionStart hook");
    const context = hookContext(hook.stdout);
    expect(context).not.toMatch(/^Baton: context unavailable/);
    expect(context).toContain(`${pinned} (pinned, by ${OWNER.name}`);
    expect(existsSync(path.join(home, ".cache", "baton", "hook.log")), "hook.log has nothing to say").toBe(false);
  });
});
