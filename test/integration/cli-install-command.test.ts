import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// `baton install` with a hook command that does not name baton (`--command bt`, a path of another
// name, the CLI run as node …/baton.js or a copy saved as baton-cli.mjs): a second run finds its own
// hooks and changes nothing (it used to add each hook again), and Codex's trust is recorded for them
// (it used to record none, so Codex skipped Baton's hooks). A user's own hook of the same shape stays.

const tmp = tempDir("baton-cli-install-command-");
afterAll(() => tmp.remove());

const URL_ = "http://baton.example.test:3000";
let n = 0;
const fresh = () => {
  const dir = path.join(tmp.dir, `c${++n}`);
  return { repo: makeRepo(path.join(dir, "repo")), env: homeEnv(path.join(dir, "home"), { BATON_URL: URL_ }), home: path.join(dir, "home") };
};
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
/** Every hook command in a Claude Code-shaped config, by event. */
const commands = (settings: { hooks: Record<string, { hooks: { command: string }[] }[]> }) =>
  Object.fromEntries(Object.entries(settings.hooks).map(([event, groups]) => [event, groups.flatMap((g) => g.hooks.map((h) => h.command))]));

async function install(args: string[], where: { repo: string; env: Record<string, string> }) {
  const result = await runBaton(["install", ...args], { cwd: where.repo, env: where.env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { files: { path: string; changed: boolean; changes: string[] }[] };
}

describe("baton install with a command that does not name baton", () => {
  it.each(["bt", "/opt/baton-cli"])("claude --command %s: the second run changes nothing", async (command) => {
    const where = fresh();
    await install(["claude", "--command", command], where);
    const second = await install(["claude", "--command", command], where);
    expect(second.files.map((f) => f.changes)).toEqual([[], []]);
    expect(commands(readJson(path.join(where.repo, ".claude/settings.json")))).toEqual({
      SessionStart: [`${command} hook session-start`],
      UserPromptSubmit: [`${command} hook prompt`],
      PreCompact: [`${command} hook pre-compact`],
      SessionEnd: [`${command} hook session-end`],
    });
  });

  it("the CLI run as node …/baton.js (and a copy saved as baton-cli.mjs): a second run changes nothing", async () => {
    for (const name of ["baton.js", "baton-cli.mjs"]) {
      const copy = path.join(tmp.dir, `bin-${name}`, name);
      mkdirSync(path.dirname(copy), { recursive: true });
      copyFileSync(path.join(ROOT, "cli/dist/baton.mjs"), copy);
      const where = fresh();
      const run = () => runProcess(process.execPath, [copy, "install", "claude"], { cwd: where.repo, env: where.env });
      expect((await run()).code).toBe(0);
      const second = await run();
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout).files.map((f: { changes: string[] }) => f.changes)).toEqual([[], []]);
      expect(commands(readJson(path.join(where.repo, ".claude/settings.json"))).SessionStart).toEqual([`node ${copy} hook session-start`]);
    }
  });

  it("an install with another command replaces the earlier one's hooks; a user's own `<tool> hook prompt` stays", async () => {
    const where = fresh();
    mkdirSync(path.join(where.repo, ".claude"), { recursive: true });
    const own = { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "lint-tool hook prompt" }] }] } };
    writeFileSync(path.join(where.repo, ".claude/settings.json"), JSON.stringify(own));
    await install(["claude", "--command", "bt"], where);
    const second = await install(["claude", "--command", "/opt/baton-cli"], where);
    expect(second.files[0]!.changes).toEqual(["updated the SessionStart hook", "updated the UserPromptSubmit hook", "updated the PreCompact hook", "updated the SessionEnd hook"]);
    expect(commands(readJson(path.join(where.repo, ".claude/settings.json")))).toEqual({
      UserPromptSubmit: ["lint-tool hook prompt", "/opt/baton-cli hook prompt"],
      SessionStart: ["/opt/baton-cli hook session-start"],
      PreCompact: ["/opt/baton-cli hook pre-compact"],
      SessionEnd: ["/opt/baton-cli hook session-end"],
    });
  });

  it("codex --command bt: each hook once, and each one trusted in config.toml, the second run changing nothing", async () => {
    const where = fresh();
    await install(["codex", "--command", "bt"], where);
    const second = await install(["codex", "--command", "bt"], where);
    expect(second.files.map((f) => f.changes)).toEqual([[], []]);
    const hooks = commands(readJson(path.join(where.home, ".codex/hooks.json")));
    expect(Object.values(hooks).map((list) => list.length)).toEqual([1, 1, 1, 1]);
    const config = readFileSync(path.join(where.home, ".codex/config.toml"), "utf8");
    expect(config.match(/^\[hooks\.state\..*\]$/gm)).toHaveLength(4);
    expect(config).toMatch(/^command = "bt"$/m);

    // Another command next: the same four hooks, updated and trusted again.
    const third = await install(["codex", "--command", "/opt/baton-cli"], where);
    expect(third.files[1]!.changes.filter((c) => c.startsWith("trusted"))).toHaveLength(4);
    expect(Object.values(commands(readJson(path.join(where.home, ".codex/hooks.json")))).flat()).toEqual(
      ["session-start", "prompt", "pre-compact", "session-end"].map((sub) => `/opt/baton-cli hook ${sub} --agent codex`),
    );
  });

  it("gemini and copilot --command bt: the second run changes nothing", async () => {
    for (const agent of ["gemini", "copilot"]) {
      const where = fresh();
      await install([agent, "--command", "bt"], where);
      const second = await install([agent, "--command", "bt"], where);
      expect(second.files.map((f) => f.changes)).toEqual(second.files.map(() => []));
    }
    const where = fresh();
    await install(["copilot", "--command", "bt"], where);
    await install(["copilot", "--command", "/opt/baton-cli"], where);
    const hooks = readJson(path.join(where.home, ".copilot/hooks/baton.json")).hooks as Record<string, { bash: string }[]>;
    expect(Object.values(hooks).map((list) => list.map((h) => h.bash))).toEqual(
      ["session-start", "prompt", "pre-compact", "session-end"].map((sub) => [`/opt/baton-cli hook ${sub} --agent copilot`]),
    );
  });
});

describe("the stdio MCP entry of a CLI at a path a shell would expand ($, `)", () => {
  it("claude, gemini and copilot start the CLI itself: no quotes left in its arguments", async () => {
    // (Node runs no ES module from a path with a backslash: commandWords' unit test has that one.)
    const odd = path.join(tmp.dir, "My Tools $HOME `x`");
    mkdirSync(odd, { recursive: true });
    const cli = path.join(odd, "baton.mjs");
    copyFileSync(path.join(ROOT, "cli/dist/baton.mjs"), cli);
    const where = fresh();
    const files = { claude: path.join(where.repo, ".mcp.json"), gemini: path.join(where.home, ".gemini/settings.json"), copilot: path.join(where.home, ".copilot/mcp-config.json") };
    for (const [agent, file] of Object.entries(files)) {
      const installed = await runProcess(process.execPath, [cli, "install", agent], { cwd: where.repo, env: where.env });
      expect(installed.code, installed.stderr).toBe(0);
      const entry = readJson(file).mcpServers.baton as { command: string; args: string[] };
      expect([entry.command, ...entry.args]).toEqual(["node", cli, "mcp"]);
      // As the agent starts it, without a shell (--version for mcp: the bridge would wait on stdin).
      const ran = await runProcess(entry.command, [...entry.args.slice(0, -1), "--version"], { cwd: where.repo, env: where.env });
      expect(ran.code, ran.stderr).toBe(0);
    }
  });
});
