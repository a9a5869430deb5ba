import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, ROOT, tempDir } from "../support/server";
import { testWorld } from "../support/world";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// `baton doctor` against the real server: the server's part (reachable, token, project), then the
// agents found on the machine (here: by their folder in a HOME of the test's own) and whether Baton is
// installed in each.

const world = testWorld({ users: ["ana"], projects: { web: "ana" }, members: [], tokens: {} });
const tmp = tempDir("baton-cli-doctor-");
afterAll(() => tmp.remove());

/** Node and git only: no agent of the machine's own on PATH. */
const PATH = [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter);
const BIN = `node ${path.join(ROOT, "cli/bin/baton.mjs")}`;

type Doctor = {
  ok: boolean;
  server: { reachable: boolean; answering: boolean; project: string | null; problem: string | null };
  agents: { agent: string; found: string | null; installed: Record<string, boolean>; notes: string[]; problems: string[] }[];
  summariser: { setting: string | null; problem: string | null };
};

const pages: Server[] = [];
afterAll(() => pages.forEach((p) => p.close()));
/** A server answering every request with an HTML page of this status, as a proxy in front of Baton does. */
async function pageServer(status: number): Promise<string> {
  const server = createServer((_req, res) => res.writeHead(status, { "content-type": "text/html" }).end(`<html><body><h1>${status}</h1></body></html>`));
  pages.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("baton doctor", () => {
  const home = path.join(tmp.dir, "home");
  mkdirSync(path.join(home, ".claude"), { recursive: true });
  let repo: string;
  const env = (extra: Record<string, string> = {}) => homeEnv(home, { PATH, BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana!, ...extra });
  const doctor = async (extra: Record<string, string> = {}) => {
    const result = await runBaton(["doctor"], { cwd: repo, env: env(extra) });
    expect(result.stderr).toBe("");
    return { code: result.code, report: JSON.parse(result.stdout) as Doctor };
  };

  it("names the project sessions here go to, and an agent found without Baton (exit 1); after baton install, exit 0", async () => {
    repo = makeRepo(path.join(tmp.dir, "src", "web"), { remote: "git@github.com:acme/web.git" });
    const before = await doctor();
    expect(before.report.server).toMatchObject({ reachable: true, answering: true, project: "web", problem: null });
    const claude = before.report.agents.find((a) => a.agent === "claude")!;
    expect(claude.found).toBe(path.join(home, ".claude"));
    expect(claude.installed).toEqual({ repo: false });
    expect(before.code).toBe(1);
    expect(before.report.ok).toBe(false);

    const installed = await runBaton(["install", "claude", "--command", BIN], { cwd: repo, env: env() });
    expect(installed.code, installed.stderr).toBe(0);
    // The doctor checks for the command this CLI would install: the same one here.
    const after = await runBaton(["doctor"], { cwd: repo, env: env() });
    const report = JSON.parse(after.stdout) as Doctor;
    expect(report.agents.find((a) => a.agent === "claude")!.installed).toEqual({ repo: true });
    expect(after.code).toBe(0);
    expect(report.ok).toBe(true);
  });

  it("says which summariser is set, and what is wrong with one that cannot run", async () => {
    const summariser = async (setting: string | null) => (await doctor(setting === null ? {} : { BATON_SUMMARISER: setting })).report.summariser;
    expect(await summariser(null)).toEqual({ setting: null, problem: null });
    expect(await summariser(JSON.stringify({ use: "openai", url: "http://localhost:11434/v1", model: "llama3.1" }))).toEqual({ setting: "http://localhost:11434/v1 (llama3.1), at most 90 s", problem: null });
    expect((await summariser(JSON.stringify({ use: "claude", command: path.join(tmp.dir, "no-claude") }))).problem).toMatch(/no-claude is not found/);
    expect((await summariser(JSON.stringify({ use: "openai", model: "llama3.1" }))).problem).toMatch(/summariser setting is ignored \(url:/);
  });

  it.each([
    { name: "the server down", extra: async () => ({ BATON_URL: `http://127.0.0.1:${await freePort()}` }), code: 5, problem: /not reachable/ },
    { name: "a refused token", extra: async () => ({ BATON_TOKEN: "baton_not_a_token" }), code: 6, problem: /token was refused/ },
    // As whoami and every command read them (README's exit codes): a proxy's own page.
    { name: "a gateway's 502 page", extra: async () => ({ BATON_URL: await pageServer(502) }), code: 5, problem: /gateway answered 502/ },
    { name: "a proxy's 401 page", extra: async () => ({ BATON_URL: await pageServer(401) }), code: 6, problem: /answered 401/ },
  ])("$name: says so, exit $code, and its JSON says ok: false", async ({ extra, code, problem }) => {
    const { code: exit, report } = await doctor(await extra());
    expect(report.server.answering).toBe(false);
    expect(report.server.problem).toMatch(problem);
    expect(exit).toBe(code);
    expect(report.ok).toBe(false);
  });

  it("Baton installed with --command (bt, a path of another name) counts as installed, the other command said in a note", async () => {
    const otherHome = path.join(tmp.dir, "home-command");
    for (const dir of [".claude", ".codex", ".config/opencode"]) mkdirSync(path.join(otherHome, dir), { recursive: true });
    // Both commands are on this machine: `bt` on PATH, the other by its path.
    const bin = path.join(tmp.dir, "bin");
    const cli = path.join(tmp.dir, "opt", "baton-cli");
    for (const file of [path.join(bin, "bt"), cli]) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, "#!/bin/sh\n", { mode: 0o755 });
    }
    const otherEnv = homeEnv(otherHome, { PATH: `${bin}${path.delimiter}${PATH}`, BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const otherRepo = makeRepo(path.join(tmp.dir, "src", "command"), { remote: "git@github.com:acme/web.git" });
    for (const [agent, command] of [["claude", "bt"], ["codex", cli], ["opencode", "bt"]]) {
      const installed = await runBaton(["install", agent!, "--command", command!], { cwd: otherRepo, env: otherEnv });
      expect(installed.code, installed.stderr).toBe(0);
    }
    const result = await runBaton(["doctor"], { cwd: otherRepo, env: otherEnv });
    const report = JSON.parse(result.stdout) as Doctor;
    const agent = (name: string) => report.agents.find((a) => a.agent === name)!;
    expect(agent("claude").installed).toEqual({ repo: true });
    expect(agent("codex").installed).toEqual({ user: true });
    expect(agent("opencode").installed).toMatchObject({ user: true });
    expect(agent("claude").notes).toEqual([`repo: Baton's hooks run \`bt\`; \`baton install\` here would write \`${BIN}\``]);
    expect(agent("codex").notes).toEqual([`user: Baton's hooks run \`${cli}\`; \`baton install\` here would write \`${BIN}\``]);
    expect(result.code, result.stdout).toBe(0);
  });

  it("hooks whose command is not on this machine (a teammate's checkout, a deleted one, a name not on PATH) cannot run: exit 1, said", async () => {
    const goneHome = path.join(tmp.dir, "home-gone");
    for (const dir of [".claude", ".codex"]) mkdirSync(path.join(goneHome, dir), { recursive: true });
    const goneEnv = homeEnv(goneHome, { PATH, BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const goneRepo = makeRepo(path.join(tmp.dir, "src", "gone"), { remote: "git@github.com:acme/web.git" });
    const script = "/home/bo/src/baton/cli/bin/baton.mjs";
    for (const [agent, command] of [["claude", `node ${script}`], ["codex", "baton-not-installed"]]) {
      const installed = await runBaton(["install", agent!, "--command", command!], { cwd: goneRepo, env: goneEnv });
      expect(installed.code, installed.stderr).toBe(0);
    }
    const result = await runBaton(["doctor"], { cwd: goneRepo, env: goneEnv });
    const report = JSON.parse(result.stdout) as Doctor;
    const agent = (name: string) => report.agents.find((a) => a.agent === name)!;
    expect(agent("claude").problems).toEqual([`repo: Baton's hooks run \`node ${script}\`, and ${script} is not on this machine (PATH, or no such file): they cannot run`]);
    expect(agent("codex").problems).toEqual(["user: Baton's hooks run `baton-not-installed`, and baton-not-installed is not on this machine (PATH, or no such file): they cannot run"]);
    expect([result.code, report.ok]).toEqual([1, false]);
  });

  it("Claude Code with Baton's plugin enabled counts as installed; disabled in the repository's local settings, it does not", async () => {
    const pluginHome = path.join(tmp.dir, "home-plugin");
    mkdirSync(path.join(pluginHome, ".claude"), { recursive: true });
    writeFileSync(path.join(pluginHome, ".claude", "settings.json"), JSON.stringify({ enabledPlugins: { "other@market": true, "baton@baton": true } }));
    const pluginEnv = homeEnv(pluginHome, { PATH, BATON_URL: world.server.url, BATON_TOKEN: world.tokens.ana! });
    const pluginRepo = makeRepo(path.join(tmp.dir, "src", "plugin"), { remote: "git@github.com:acme/web.git" });
    const enabled = await runBaton(["doctor"], { cwd: pluginRepo, env: pluginEnv });
    const claude = (JSON.parse(enabled.stdout) as Doctor).agents.find((a) => a.agent === "claude")!;
    expect(claude.installed).toEqual({ plugin: true, repo: false });
    expect(claude.notes).toEqual([`the Baton plugin is enabled in ${path.join(pluginHome, ".claude", "settings.json")}`]);
    expect(enabled.code, enabled.stdout).toBe(0);

    mkdirSync(path.join(pluginRepo, ".claude"), { recursive: true });
    writeFileSync(path.join(pluginRepo, ".claude", "settings.local.json"), JSON.stringify({ enabledPlugins: { "baton@baton": false } }));
    const disabled = await runBaton(["doctor"], { cwd: pluginRepo, env: pluginEnv });
    expect((JSON.parse(disabled.stdout) as Doctor).agents.find((a) => a.agent === "claude")!.installed).toEqual({ repo: false });
    expect(disabled.code).toBe(1);
  });
});
