import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { codexHookHash, codexInstaller } from "../../cli/src/agents/codex/install";
import { commandWords } from "../../cli/src/agents/install-files";
import type { InstallContext, PlannedFile } from "../../cli/src/agents/agent";
import { MergeError } from "../../cli/src/commands/merge-settings";
import { tempDir } from "../support/server";

const tmp = tempDir("baton-codex-install-");
afterAll(() => tmp.remove());
let n = 0;
let home: string;
let context: InstallContext;
const COMMAND = "node /opt/baton/cli/bin/baton.mjs";
beforeEach(() => {
  home = path.join(tmp.dir, `home-${n++}`);
  mkdirSync(path.join(home, ".codex"), { recursive: true });
  context = { command: COMMAND, url: "http://127.0.0.1:3000", scope: "user", home, root: home };
  delete process.env.CODEX_HOME;
});

const hooksFile = () => path.join(home, ".codex", "hooks.json");
const configFile = () => path.join(home, ".codex", "config.toml");
const plan = () => codexInstaller.plan(context);
const write = (files: PlannedFile[]) => files.forEach((f) => writeFileSync(f.file, f.after));

/** Every line of `before` is in `after`, in the same order. */
function keepsLines(before: string, after: string): void {
  let at = 0;
  for (const line of before.split("\n")) {
    const found = after.split("\n").indexOf(line, at);
    expect(found, `lost or moved: ${line}`).toBeGreaterThanOrEqual(at);
    at = found + 1;
  }
}

describe("baton install codex (the plan)", () => {
  it("into an empty ~/.codex: the four hooks with Codex's time limits in seconds, the MCP server, and the hooks' trust", () => {
    const { files, notes } = plan();
    const hooks = JSON.parse(files[0]!.after) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> };
    expect(files.map((f) => f.file)).toEqual([hooksFile(), configFile()]);
    expect(Object.fromEntries(Object.entries(hooks.hooks).map(([event, groups]) => [event, groups.map((g) => g.hooks)]))).toEqual({
      SessionStart: [[{ type: "command", command: `${COMMAND} hook session-start --agent codex`, timeout: 30 }]],
      UserPromptSubmit: [[{ type: "command", command: `${COMMAND} hook prompt --agent codex`, timeout: 10 }]],
      PreCompact: [[{ type: "command", command: `${COMMAND} hook pre-compact --agent codex`, timeout: 30 }]],
      SessionEnd: [[{ type: "command", command: `${COMMAND} hook session-end --agent codex`, timeout: 3 }]],
    });
    const toml = files[1]!.after;
    expect(toml).toContain(`[mcp_servers.baton]\ncommand = "node"\nargs = ["/opt/baton/cli/bin/baton.mjs", "mcp"]\n`);
    // No token: `baton mcp` reads it from Baton's own config; Codex only passes the variable's name on.
    expect(toml).not.toMatch(/baton_\w/);
    expect(toml).toContain('env_vars = ["BATON_URL", "BATON_TOKEN", "XDG_CONFIG_HOME"]');
    for (const label of ["session_start", "user_prompt_submit", "pre_compact", "session_end"]) {
      expect(toml).toMatch(new RegExp(`\\[hooks\\.state\\.${JSON.stringify(`${hooksFile()}:${label}:0:0`).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\]\ntrusted_hash = "sha256:[0-9a-f]{64}"`));
    }
    expect(files[1]!.changes).toEqual(['added the "baton" MCP server', "trusted the SessionStart hook", "trusted the UserPromptSubmit hook", "trusted the PreCompact hook", "trusted the SessionEnd hook"]);
    expect(notes.join(" ")).toContain("/hooks");
  });

  it("keeps other hooks, other MCP servers, other tables and every comment, and trusts Baton's hooks where they land", () => {
    const hooksBefore = JSON.stringify({ description: "mine", hooks: { SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo mine", timeout: 5 }] }], Stop: [{ hooks: [{ type: "command", command: "notify" }] }] } }, null, 2);
    const tomlBefore = [
      "# my Codex config",
      'model = "gpt-5.5" # the default',
      "",
      "[mcp_servers.docs]",
      'command = "docs-mcp"',
      'args = ["serve",',
      '  "--port", "0"]',
      "",
      "[mcp_servers.baton]",
      "# started by hand before",
      'command = "baton-old"',
      "startup_timeout_sec = 20",
      "",
      '[projects."/home/ana/src/web"]',
      'trust_level = "trusted"',
      'notes = """',
      "[not a table]",
      '"""',
    ].join("\n");
    writeFileSync(hooksFile(), hooksBefore);
    writeFileSync(configFile(), tomlBefore);
    const { files } = plan();
    const hooks = JSON.parse(files[0]!.after) as { description: string; hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(hooks.description).toBe("mine");
    expect(hooks.hooks.SessionStart!.map((g) => g.hooks[0]!.command)).toEqual(["echo mine", `${COMMAND} hook session-start --agent codex`]);
    expect(hooks.hooks.Stop).toEqual([{ hooks: [{ type: "command", command: "notify" }] }]);
    const toml = files[1]!.after;
    keepsLines(tomlBefore.replace('command = "baton-old"\n', ""), toml);
    expect(toml).toContain('[mcp_servers.baton]\n# started by hand before\ncommand = "node"\nstartup_timeout_sec = 20\nargs = ["/opt/baton/cli/bin/baton.mjs", "mcp"]\n');
    expect(toml).toContain(`[hooks.state."${hooksFile()}:session_start:1:0"]`);
    expect(files[1]!.changes[0]).toBe('updated the "baton" MCP server');
  });

  it("turns an HTTP entry for baton into the stdio bridge: no url, bearer or header keys left (Codex refuses a server with both)", () => {
    const before = [
      "# my settings",
      'model = "o4"',
      "",
      "[mcp_servers.baton]",
      'url = "https://baton.example.com/api/mcp"',
      'bearer_token_env_var = "BATON_TOKEN"',
      "startup_timeout_sec = 20",
      "",
      "[mcp_servers.baton.http_headers]",
      'X-Team = "web"',
      "",
      "[mcp_servers.other]",
      'command = "other"',
      "",
    ].join("\n");
    writeFileSync(configFile(), before);
    const config = plan().files.find((f) => f.file === configFile())!;
    expect(config.changes).toContain(`updated the "baton" MCP server`);
    expect(config.after).not.toMatch(/^url =|bearer_token|http_headers|X-Team/m);
    expect(config.after).toMatch(/\[mcp_servers\.baton\]\nstartup_timeout_sec = 20\ncommand = "node"\nargs = \[.*"mcp"\]/);
    expect(config.after).toContain("startup_timeout_sec = 20");
    expect(config.after).toContain('[mcp_servers.other]\ncommand = "other"');
    expect(config.after).toContain('# my settings\nmodel = "o4"');
  });

  it("changes nothing when run again", () => {
    writeFileSync(configFile(), '# mine\nmodel = "o3"\n');
    write(plan().files);
    for (const file of plan().files) expect([file.changes, file.after]).toEqual([[], file.before]);
  });

  it.each([
    ["hooks.json that is not JSON", "hooks.json", "{ not json"],
    ["hooks.json whose hooks are not an object", "hooks.json", '{"hooks": []}'],
    ["an unclosed table header", "config.toml", "[mcp_servers.baton\ncommand = 1\n"],
    ["a key without a value", "config.toml", "model =\n"],
    ["an unclosed string", "config.toml", 'model = "gpt\n'],
    ["an unclosed multi-line array", "config.toml", "args = [\n  1,\n"],
    ["a table defined twice", "config.toml", "[a]\nx = 1\n[a]\ny = 2\n"],
    ["the MCP server as an inline table", "config.toml", 'mcp_servers = { baton = { command = "x" } }\n'],
    ["the MCP server as dotted keys", "config.toml", '[mcp_servers]\nbaton.command = "x"\n'],
    ["MCP servers as an array of tables", "config.toml", '[[mcp_servers]]\nname = "x"\n'],
  ])("refuses %s and plans nothing", (_, name, text) => {
    writeFileSync(path.join(home, ".codex", name), text);
    expect(() => plan()).toThrow(MergeError);
  });

  it("writes under $CODEX_HOME when it is set", () => {
    process.env.CODEX_HOME = path.join(home, "elsewhere");
    mkdirSync(process.env.CODEX_HOME);
    try {
      expect(plan().files.map((f) => f.file)).toEqual([path.join(home, "elsewhere", "hooks.json"), path.join(home, "elsewhere", "config.toml")]);
    } finally {
      delete process.env.CODEX_HOME;
    }
  });

  it("finds Codex by its config folder, or its binary on PATH", () => {
    const path0 = process.env.PATH;
    process.env.PATH = path.join(tmp.dir, "no-bin");
    try {
      expect(codexInstaller.found({ home })).toBe(path.join(home, ".codex"));
      expect(codexInstaller.found({ home: path.join(tmp.dir, "nobody") })).toBeNull();
      const bin = path.join(tmp.dir, "bin");
      mkdirSync(bin, { recursive: true });
      writeFileSync(path.join(bin, "codex"), "#!/bin/sh\n", { mode: 0o755 });
      process.env.PATH = bin;
      expect(codexInstaller.found({ home: path.join(tmp.dir, "nobody") })).toBe(path.join(bin, "codex"));
    } finally {
      process.env.PATH = path0;
    }
  });
});

describe("codexHookHash", () => {
  // What `codex app-server` (0.169) answered in hooks/list for these hooks as `currentHash`.
  it("is the hash Codex trusts a hook by", () => {
    expect(codexHookHash("SessionStart", "session_start", "startup|resume", { type: "command", command: "/tmp/cx/hook.sh SessionStart", timeout: 30 })).toBe(
      "sha256:e8e25df2fa559b400b22332c32dc15b7933794d7176d16bdf93e431204e4464e",
    );
    expect(codexHookHash("UserPromptSubmit", "user_prompt_submit", undefined, { type: "command", command: "/tmp/cx/hook.sh UserPromptSubmit", timeout: 10 })).toBe(
      "sha256:b51fad6c0c496f812395eca92f90c902053147cef88a2ed0a03a9b60f7a8648a",
    );
  });
});

describe("commandWords", () => {
  it.each([
    ["baton", ["baton"]],
    ["node /opt/baton/cli/bin/baton.mjs", ["node", "/opt/baton/cli/bin/baton.mjs"]],
    ['node "/home/ana/my tools/baton.mjs"', ["node", "/home/ana/my tools/baton.mjs"]],
    ["node '/a b/baton.mjs'", ["node", "/a b/baton.mjs"]],
  ])("%s", (command, words) => expect(commandWords(command)).toEqual(words));
});
