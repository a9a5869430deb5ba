import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiClient } from "../support/api";
import { startCli, type RunningCli } from "../support/cli";
import { createUserWithToken } from "../support/fixtures";
import { loginApproval } from "../support/login-approval";
import { runProcess } from "../support/run-process";
import { freePort, ROOT } from "../support/server";
import { emailOf, testWorld } from "../support/world";
import { homeEnv, recordingProxy, runBaton, writeUserConfig } from "../fixtures/cli/cli-env";

// `baton login`, `baton whoami` and `baton logout`: the real CLI as a child process against the real
// built server, the code approved (or denied) through the dashboard's own page, posted as a browser
// without JavaScript posts it. ana owns alpha; bo is another user.
const world = testWorld({ tempPrefix: "baton-cli-login-", users: ["ana", "bo"], projects: { alpha: "ana" }, members: [], tokens: {} });
const { approvalPage, answerForm, postAnswer, answer } = loginApproval(world);

const configFile = (home: string) => path.join(home, ".config", "baton", "config.json");
const readConfig = (home: string) => JSON.parse(readFileSync(configFile(home), "utf8")) as Record<string, unknown>;
let homes = 0;
/** A fresh HOME with no display: nothing is opened, as over SSH. */
const newHome = (extra: Record<string, string> = {}) => {
  const home = path.join(world.dir, `home-${++homes}`);
  return { home, env: homeEnv(home, { DISPLAY: "", WAYLAND_DISPLAY: "", ...extra }) };
};

/** `baton login` started (by `script`, the CLI by default), and the code and URL it printed. */
async function startLogin(env: Record<string, string>, args: string[] = [], script?: string): Promise<{ cli: RunningCli; code: string; url: string }> {
  const cli = startCli(["login", "--url", world.server.url, ...args], { env, cwd: world.dir, script });
  const [, code] = await cli.stderrMatch(/approve the code ([A-Z]{4}-[A-Z]{4}):/);
  const [, url] = await cli.stderrMatch(/^ {2}(http\S+)$/m);
  return { cli, code: code!, url: url! };
}

const LAUNCHER = path.join(ROOT, "plugins/baton/bin/baton.mjs");
const json = (stdout: string) => JSON.parse(stdout) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("baton login, whoami, logout", () => {
  const { home, env } = newHome();
  let token = "";

  it("prints a code and the page's URL, receives the token once approved, keeps it 0600 beside the other keys, and says whom it signed in", async () => {
    writeUserConfig(home, { promptTimeoutMs: 1500 });
    chmodSync(configFile(home), 0o644);
    const { cli, code, url } = await startLogin(env);
    expect(url).toBe(`${world.server.url}/connect/device?code=${code}`);

    const page = await approvalPage("ana", code);
    expect(page).toContain(code);
    expect(page).toMatch(/Asked by <strong>[^<]+<\/strong> from 127\.0\.0\.1/);
    const answered = await postAnswer("ana", code, answerForm(page)!, { decision: "approve", name: "ana laptop", scope: "write" });
    expect(answered).toContain("Approved.");

    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    const out = json(result.stdout);
    expect(out).toMatchObject({ ok: true, url: world.server.url, user: { email: emailOf("ana") }, token: { name: "ana laptop", scope: "write", projects: [] } });
    expect(statSync(configFile(home)).mode & 0o777).toBe(0o600);
    const config = readConfig(home);
    expect(config).toEqual({ promptTimeoutMs: 1500, url: world.server.url, token: expect.stringMatching(/^baton_/) });
    token = config.token as string;
    expect((await apiClient(world.server.url, token)("GET", "/api/projects")).status).toBe(200);
  });

  it("baton whoami names the user, the token's name and scope, the server and where the token came from", async () => {
    const result = await runBaton(["whoami"], { cwd: world.dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result.stdout)).toMatchObject({
      url: world.server.url,
      user: { name: expect.any(String), email: emailOf("ana") },
      token: { name: "ana laptop", scope: "write", projects: [], displayPrefix: token.slice(0, 12) },
      tokenFrom: configFile(home),
    });
  });

  it("baton logout revokes the token (it then gets 401) and removes it from the file, keeping the URL", async () => {
    const result = await runBaton(["logout"], { cwd: world.dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result.stdout)).toMatchObject({ revoked: true, removedFrom: configFile(home) });
    expect((await apiClient(world.server.url, token)("GET", "/api/me")).status).toBe(401);
    expect(readConfig(home)).toEqual({ promptTimeoutMs: 1500, url: world.server.url });

    const whoami = await runBaton(["whoami"], { cwd: world.dir, env });
    expect(whoami.code).toBe(2);
    expect(whoami.stderr).toMatch(/no token for .*run `baton login`/);
  });

  it("baton whoami with a revoked token: exit 6, and says to sign in again", async () => {
    const result = await runBaton(["whoami"], { cwd: world.dir, env: { ...env, BATON_TOKEN: token } });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/Sign in again with `baton login`/);
  });
});

describe("through the Claude Code plugin's launcher", () => {
  it("`login --url` works before anything is configured, and what the plugin runs then uses the file's token (whoami)", async () => {
    const { home, env } = newHome();
    const pluginEnv = { ...env, CLAUDE_PLUGIN_DATA: path.join(home, "plugin-data") };
    const { cli, code } = await startLogin(pluginEnv, [], LAUNCHER);
    expect(await answer("ana", code, { decision: "approve", name: "plugin", scope: "write" })).toContain("Approved.");
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(home)).toEqual({ url: world.server.url, token: expect.stringMatching(/^baton_/) });
    const whoami = await runProcess(process.execPath, [LAUNCHER, "whoami"], { env: pluginEnv, cwd: world.dir });
    expect(json(whoami.stdout)).toMatchObject({ user: { email: emailOf("ana") }, token: { name: "plugin" } });
  });
});

describe("denied, expired, answered twice", () => {
  it("a denied code: the CLI says so (exit 6) and writes no token", async () => {
    const { home, env } = newHome();
    const { cli, code } = await startLogin(env);
    expect(await answer("ana", code, { decision: "deny" })).toContain("Denied.");
    const result = await cli.done;
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/denied in the browser/);
    expect(existsSync(configFile(home))).toBe(false);
  });

  it("an expired code: the CLI says so (exit 1), and the page no longer offers it", async () => {
    const { home, env } = newHome();
    const { cli, code } = await startLogin(env);
    await world.sql("UPDATE cli_logins SET expires_at = ? WHERE user_code = ?", [Date.now() - 1000, code.replace("-", "")]);
    const result = await cli.done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/code expired before it was approved/);
    expect(existsSync(configFile(home))).toBe(false);
    const page = await approvalPage("ana", code);
    expect(page).toContain(`The code ${code} expired.`);
    expect(answerForm(page)).toBeNull();
  });

  it("a code is answered once: approving it again is refused, and one token is made", async () => {
    const { env } = newHome();
    const { cli, code } = await startLogin(env);
    const hidden = answerForm(await approvalPage("ana", code))!;
    const fields = { decision: "approve", name: "approved twice", scope: "read", "project:alpha": "on" };
    expect(await postAnswer("ana", code, hidden, fields)).toContain("Approved.");
    expect(await postAnswer("ana", code, hidden, fields)).toContain(`The code ${code} was answered already.`);
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    expect(json(result.stdout).token).toEqual({ name: "approved twice", scope: "read", projects: ["alpha"] });
    expect(await world.sql("SELECT count(*) AS n FROM api_tokens WHERE name = 'approved twice'")).toEqual([{ n: 1 }]);
    expect(await approvalPage("ana", code)).toContain(`The code ${code} was answered already`);
  });

  it("a project that is not the approver's is refused on the page; the code stays open", async () => {
    const { cli, code } = await startLogin(newHome().env);
    expect(await answer("bo", code, { decision: "approve", name: "bo's", scope: "write", "project:alpha": "on" })).toContain("No project alpha that you are a member of.");
    expect(answerForm(await approvalPage("bo", code))).not.toBeNull();
    cli.kill();
  });
});

describe("where the browser opens", () => {
  /** A fake xdg-open first on PATH that records what it was asked to open. */
  function fakeOpener(home: string): { path: string; opened: string } {
    const bin = path.join(home, "bin");
    const opened = path.join(home, "opened.txt");
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, "xdg-open"), `#!/bin/sh\necho "$1" >> "${opened}"\n`, { mode: 0o755 });
    return { path: `${bin}:${process.env.PATH}`, opened };
  }

  it("with a display the URL is opened; with --no-browser, or without a display (SSH), it is only printed", async () => {
    const withDisplay = newHome();
    const opener = fakeOpener(withDisplay.home);
    const shown = await startLogin({ ...withDisplay.env, DISPLAY: ":0", PATH: opener.path });
    expect(await shown.cli.stderrMatch(/opening it in your browser/)).toBeTruthy();
    // The opener runs as a process of its own: time to spare (the default is 1 s).
    await expect.poll(() => (existsSync(opener.opened) ? readFileSync(opener.opened, "utf8") : ""), { timeout: 10_000 }).toBe(`${shown.url}\n`);
    shown.cli.kill();

    for (const [env, args] of [
      [{ DISPLAY: ":0" }, ["--no-browser"]],
      [{ DISPLAY: "", SSH_CONNECTION: "10.0.0.2 50000 10.0.0.1 22" }, []],
    ] as const) {
      const quiet = newHome();
      const none = fakeOpener(quiet.home);
      const { cli } = await startLogin({ ...quiet.env, ...env, PATH: none.path }, [...args]);
      // Whether it opens the browser is decided before this line, which says so when it does.
      await cli.stderrMatch(/Waiting for approval/);
      cli.kill();
      expect((await cli.done).stderr).not.toContain("opening it");
      expect(existsSync(none.opened)).toBe(false);
    }
  });
});

describe("offline and odd configurations", () => {
  it("a poll answered 503 (a database restarting) is asked again: the approval is not lost", async () => {
    // A proxy in front of the real server answers the first two polls as a server whose database is away.
    let refused = 0;
    const proxy = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.url === "/api/cli/login/poll" && refused < 2) {
        refused++;
        res.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
        return res.end(JSON.stringify({ ok: false, error: { code: "database_unavailable", message: "The database cannot be reached right now; try again shortly." } }));
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => typeof v === "string" && !["host", "connection", "content-length"].includes(k))) as Record<string, string>;
      const upstream = await fetch(world.server.url + req.url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const { home, env } = newHome();
      const cli = startCli(["login", "--url", `http://127.0.0.1:${(proxy.address() as { port: number }).port}`], { env, cwd: world.dir });
      const [, code] = await cli.stderrMatch(/approve the code ([A-Z]{4}-[A-Z]{4}):/);
      await cli.stderrMatch(/answered 503 .*Still trying until the code expires/);
      const page = await approvalPage("ana", code!);
      expect(await postAnswer("ana", code!, answerForm(page)!, { decision: "approve", name: "through a restart", scope: "write" })).toContain("Approved.");
      const result = await cli.done;
      expect(result.code, result.stderr).toBe(0);
      expect(refused).toBe(2);
      expect(readConfig(home).token).toMatch(/^baton_/);
    } finally {
      proxy.close();
    }
  }, 60_000);

  it("plain HTTP to another machine is said before signing in; to this machine's loopback it is not", async () => {
    const { env } = newHome();
    const lan = await runBaton(["login", "--url", `http://baton-host.invalid:${await freePort()}`, "--no-browser"], { cwd: world.dir, env });
    expect(lan.code).not.toBe(0);
    expect(lan.stderr).toMatch(/is plain HTTP: the token this sign-in makes, and every request the hooks send with it, cross the network unencrypted/);
    const local = await runBaton(["login", "--url", `http://127.0.0.1:${await freePort()}`, "--no-browser"], { cwd: world.dir, env });
    expect(local.code).not.toBe(0);
    expect(local.stderr).not.toContain("plain HTTP");
  });

  it("baton logout with the server out of reach: the token leaves the file, and it says it could not be revoked (exit 5)", async () => {
    const { home, env } = newHome();
    const down = `http://127.0.0.1:${await freePort()}`;
    writeUserConfig(home, { url: down, token: "baton_offline-token", mode: "full" });
    const result = await runBaton(["logout"], { cwd: world.dir, env });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/could not be revoked \(the server is not reachable at .*\): it stays valid until you revoke it at .*\/settings\/tokens/);
    expect(result.stderr).toContain(`Removed it from ${configFile(home)}`);
    expect(readConfig(home)).toEqual({ url: down, mode: "full" });
  });

  it("baton logout waits its own 10 s for the revocation, not the hooks' 2 s: a server slow to answer (3.5 s) still revokes", async () => {
    const { home, env } = newHome();
    const token = await createUserWithToken(world.databaseUrl, emailOf("ana"), { existing: true });
    const slow = await recordingProxy(world.server.url, { delayMs: 3500 });
    try {
      writeUserConfig(home, { url: slow.url, token });
      const result = await runBaton(["logout"], { cwd: world.dir, env });
      expect(result.code, result.stderr).toBe(0);
      expect(json(result.stdout)).toMatchObject({ revoked: true });
      expect((await apiClient(world.server.url, token)("GET", "/api/me")).status).toBe(401);
    } finally {
      await slow.close();
    }
  });

  it("baton logout with a read token: removed from the file, but not revoked (a read token changes nothing), exit 1", async () => {
    const { home, env } = newHome();
    const read = await createUserWithToken(world.databaseUrl, emailOf("bo"), { scope: "read", existing: true });
    writeUserConfig(home, { url: world.server.url, token: read });
    const result = await runBaton(["logout"], { cwd: world.dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not be revoked \(.* answered 403: This token has the read scope/);
    expect(readConfig(home)).toEqual({ url: world.server.url });
    expect((await apiClient(world.server.url, read)("GET", "/api/me")).status).toBe(200);
  });

  it("baton logout with nothing signed in says so; baton login without a server asks for one", async () => {
    const { env } = newHome();
    const out = await runBaton(["logout"], { cwd: world.dir, env });
    expect(out.code).toBe(0);
    expect(json(out.stdout)).toMatchObject({ signedIn: false });
    const login = await runBaton(["login"], { cwd: world.dir, env });
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(/which server\? Run `baton login --url/);
    const bad = await runBaton(["login", "--url", "ftp://x"], { cwd: world.dir, env });
    expect(bad.code).toBe(2);
  });

  it("a config file that is not a JSON object is left alone: login stops before asking for a code", async () => {
    const { home, env } = newHome();
    writeUserConfig(home, {});
    writeFileSync(configFile(home), "[1, 2]");
    const before = await world.sql("SELECT count(*) AS n FROM cli_logins");
    const result = await runBaton(["login", "--url", world.server.url], { cwd: world.dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/config\.json is not a JSON object: fix or remove it/);
    expect(readFileSync(configFile(home), "utf8")).toBe("[1, 2]");
    expect(await world.sql("SELECT count(*) AS n FROM cli_logins")).toEqual(before);
  });
});
