import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "../support/run-process";
import { ROOT, tempDir } from "../support/server";
import { homeEnv, makeRepo, runBaton } from "../fixtures/cli/cli-env";

// `baton install claude` edits two files people also edit by hand: nothing of theirs may be lost or
// duplicated, and running it twice changes nothing. No server is needed.

const tmp = tempDir("baton-cli-install-");
afterAll(() => tmp.remove());

const URL_ = "http://baton.example.test:3000";
const env = homeEnv(path.join(tmp.dir, "home"), { BATON_URL: URL_, BATON_TOKEN: "baton_secret_never_written" });
const BIN = `node ${path.join(ROOT, "cli/bin/baton.mjs")}`;

const FOREIGN_SETTINGS = {
  permissions: { allow: ["Bash(npm test:*)"], deny: [] },
  hooks: {
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] }],
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./scripts/check.sh", timeout: 10 }] }],
  },
  env: { FOO: "1" },
};
const FOREIGN_MCP = { mcpServers: { github: { type: "http", url: "https://api.githubcopilot.com/mcp/" } } };

let n = 0;
function repoWith(files: Record<string, string>): string {
  const repo = makeRepo(path.join(tmp.dir, `r${++n}`));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
    writeFileSync(path.join(repo, rel), text);
  }
  return repo;
}
const read = (repo: string, rel: string) => readFileSync(path.join(repo, rel), "utf8");
/** Claude Code's time limit of each hook as the plugin sets it: an install sets the same. */
const pluginHooks = JSON.parse(readFileSync(path.join(ROOT, "plugins/baton/hooks/hooks.json"), "utf8")).hooks as Record<string, { hooks: { timeout?: number }[] }[]>;
const limitOf = (event: string) => {
  const timeout = pluginHooks[event]![0]!.hooks[0]!.timeout;
  return timeout === undefined ? {} : { timeout };
};
const json = (repo: string, rel: string) => JSON.parse(read(repo, rel));

describe("baton install claude", () => {
  it("merges the hooks and the MCP server next to what is there, and a second run changes nothing", async () => {
    const repo = repoWith({ ".claude/settings.json": JSON.stringify(FOREIGN_SETTINGS, null, 4), ".mcp.json": JSON.stringify(FOREIGN_MCP) });
    const result = await runBaton(["install", "claude"], { cwd: repo, env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      files: [
        {
          path: path.join(repo, ".claude/settings.json"),
          changed: true,
          changes: ["added the SessionStart hook", "added the UserPromptSubmit hook", "added the PreCompact hook", "added the SessionEnd hook"],
        },
        { path: path.join(repo, ".mcp.json"), changed: true, changes: ['added the "baton" MCP server'] },
      ],
    });
    expect(json(repo, ".claude/settings.json")).toEqual({
      ...FOREIGN_SETTINGS,
      hooks: {
        SessionStart: [...FOREIGN_SETTINGS.hooks.SessionStart, { hooks: [{ type: "command", command: `${BIN} hook session-start`, ...limitOf("SessionStart") }] }],
        PreToolUse: FOREIGN_SETTINGS.hooks.PreToolUse,
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `${BIN} hook prompt`, ...limitOf("UserPromptSubmit") }] }],
        PreCompact: [{ hooks: [{ type: "command", command: `${BIN} hook pre-compact`, ...limitOf("PreCompact") }] }],
        SessionEnd: [{ hooks: [{ type: "command", command: `${BIN} hook session-end`, ...limitOf("SessionEnd") }] }],
      },
    });
    // Each hook but SessionEnd (its work runs detached) has a limit, within what Claude Code allows.
    expect(["SessionStart", "UserPromptSubmit", "PreCompact"].map((e) => limitOf(e).timeout! > 0 && limitOf(e).timeout! <= 60)).toEqual([true, true, true]);
    expect(json(repo, ".mcp.json")).toEqual({
      mcpServers: {
        github: FOREIGN_MCP.mcpServers.github,
        baton: { type: "stdio", command: "node", args: [path.join(ROOT, "cli/bin/baton.mjs"), "mcp"] },
      },
    });
    expect(read(repo, ".mcp.json")).not.toContain("baton_secret_never_written");
    expect(read(repo, ".mcp.json")).not.toContain("BATON_TOKEN");

    const before = [read(repo, ".claude/settings.json"), read(repo, ".mcp.json")];
    const mtimes = [statSync(path.join(repo, ".claude/settings.json")).mtimeMs, statSync(path.join(repo, ".mcp.json")).mtimeMs];
    const again = await runBaton(["install", "claude"], { cwd: repo, env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).files.map((f: { changed: boolean }) => f.changed)).toEqual([false, false]);
    expect([read(repo, ".claude/settings.json"), read(repo, ".mcp.json")]).toEqual(before);
    expect([statSync(path.join(repo, ".claude/settings.json")).mtimeMs, statSync(path.join(repo, ".mcp.json")).mtimeMs]).toEqual(mtimes);
  });

  it("--dry-run prints a unified diff and writes nothing", async () => {
    const original = JSON.stringify(FOREIGN_SETTINGS, null, 2) + "\n";
    const repo = repoWith({ ".claude/settings.json": original });
    const result = await runBaton(["install", "claude", "--dry-run"], { cwd: repo, env });
    expect(result.code, result.stderr).toBe(0);
    expect(read(repo, ".claude/settings.json")).toBe(original);
    expect(existsSync(path.join(repo, ".mcp.json"))).toBe(false);
    const [settingsDiff, mcpDiff] = result.stdout.split(/(?=^--- )/m);
    expect(settingsDiff).toMatch(/^--- a\/\.claude\/settings\.json\n\+\+\+ b\/\.claude\/settings\.json\n@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    expect(settingsDiff).toContain(`+        "hooks": [\n+          {\n+            "type": "command",\n+            "command": "${BIN} hook session-start",\n+            "timeout": ${limitOf("SessionStart").timeout}\n`);
    expect(settingsDiff).toContain(`+    "SessionEnd": [\n`);
    for (const hook of ["prompt", "pre-compact"]) expect(settingsDiff).toContain(`"command": "${BIN} hook ${hook}"`);
    // Only additions, in two hunks with three lines of context each.
    expect(settingsDiff!.match(/^@@ .* @@$/gm)).toEqual(["@@ -15,6 +15,15 @@", "@@ -28,6 +37,38 @@"]);
    expect(settingsDiff!.split("\n").filter((l) => l.startsWith("-") && !l.startsWith("---"))).toEqual([]);
    expect(mcpDiff).toBe(
      [
        "--- /dev/null",
        "+++ b/.mcp.json",
        "@@ -0,0 +1,12 @@",
        "+{",
        '+  "mcpServers": {',
        '+    "baton": {',
        '+      "type": "stdio",',
        '+      "command": "node",',
        '+      "args": [',
        `+        "${path.join(ROOT, "cli/bin/baton.mjs")}",`,
        '+        "mcp"',
        "+      ]",
        "+    }",
        "+  }",
        "+}",
        "",
      ].join("\n"),
    );
    const installed = repoWith({});
    await runBaton(["install", "claude"], { cwd: installed, env });
    const nothing = await runBaton(["install", "claude", "--dry-run"], { cwd: installed, env });
    expect(nothing.stdout).toBe("No changes: Baton is already installed here.\n");
  });

  it("recognises its own hooks however baton was invoked: updated in place, duplicates removed", async () => {
    const repo = repoWith({
      ".claude/settings.json": JSON.stringify({
        hooks: {
          SessionStart: [
            { matcher: "startup|resume", hooks: [{ type: "command", command: "npx baton hook session-start", timeout: 5 }, { type: "command", command: "echo keep me" }] },
            { hooks: [{ type: "command", command: "node /old/checkout/cli/bin/baton.mjs hook session-start" }] },
          ],
          SessionEnd: [{ hooks: [{ type: "command", command: "npx baton hook session-end" }] }],
          UserPromptSubmit: [{ hooks: [{ type: "command", command: "node /old/baton.mjs hook prompt", timeout: 3 }] }],
          PreCompact: [{ hooks: [{ type: "command", command: "baton hook pre-compact" }] }],
        },
      }),
    });
    // The npx lines are what older dashboards suggested: an install replaces them with this CLI.
    const result = await runBaton(["install", "claude", "--command", "baton"], { cwd: repo, env });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).files[0].changes).toEqual([
      "updated the SessionStart hook",
      "removed a duplicate SessionStart hook",
      "updated the UserPromptSubmit hook",
      // An install before hooks had a time limit: given the plugin's. One the user set (5, 3 above) stays.
      `gave the PreCompact hook a time limit of ${limitOf("PreCompact").timeout} s`,
      "updated the SessionEnd hook",
    ]);
    expect(json(repo, ".claude/settings.json").hooks).toEqual({
      SessionStart: [{ matcher: "startup|resume", hooks: [{ type: "command", command: "baton hook session-start", timeout: 5 }, { type: "command", command: "echo keep me" }] }],
      SessionEnd: [{ hooks: [{ type: "command", command: "baton hook session-end" }] }],
      UserPromptSubmit: [{ hooks: [{ type: "command", command: "baton hook prompt", timeout: 3 }] }],
      PreCompact: [{ hooks: [{ type: "command", command: "baton hook pre-compact", ...limitOf("PreCompact") }] }],
    });
  });

  it("names `baton` when the baton on PATH is this CLI (as install.sh sets it up), never a node_modules/.bin one", async () => {
    const linked = path.join(tmp.dir, "path-bin");
    const npmBin = path.join(tmp.dir, "node_modules/.bin");
    for (const dir of [linked, npmBin]) {
      mkdirSync(dir, { recursive: true });
      symlinkSync(path.join(ROOT, "cli/bin/baton.mjs"), path.join(dir, "baton"));
    }
    const hooksWith = async (PATH: string) => {
      const repo = repoWith({});
      const result = await runBaton(["install", "claude"], { cwd: repo, env: { ...env, PATH } });
      expect(result.code, result.stderr).toBe(0);
      return json(repo, ".claude/settings.json").hooks.SessionStart[0].hooks[0].command;
    };
    expect(await hooksWith(`${linked}${path.delimiter}${process.env.PATH}`)).toBe("baton hook session-start");
    // npx and npm scripts put node_modules/.bin on PATH; Claude Code's hooks do not have it.
    expect(await hooksWith(`${npmBin}${path.delimiter}${process.env.PATH}`)).toBe(`${BIN} hook session-start`);
  });

  it("--url is kept as the server in the user's config file, where the hooks read it", async () => {
    const home = path.join(tmp.dir, "home-url");
    const repo = repoWith({});
    const result = await runBaton(["install", "claude", "--url", "https://baton.example.test/"], { cwd: repo, env: homeEnv(home) });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(home, ".config/baton/config.json"), "utf8"))).toEqual({ url: "https://baton.example.test" });
  });

  it("a CLI at a path a shell would expand ($, `) is written in single quotes, and the hook runs it", async () => {
    const odd = path.join(tmp.dir, "My Tools $HOME `x`");
    mkdirSync(odd, { recursive: true });
    copyFileSync(path.join(ROOT, "cli/dist/baton.mjs"), path.join(odd, "baton.mjs"));
    const repo = repoWith({});
    const installed = await runProcess(process.execPath, [path.join(odd, "baton.mjs"), "install", "claude"], { cwd: repo, env });
    expect(installed.code, installed.stderr).toBe(0);
    const command = json(repo, ".claude/settings.json").hooks.SessionStart[0].hooks[0].command as string;
    expect(command).toBe(`node '${odd}/baton.mjs' hook session-start`);
    const ran = await runProcess("sh", ["-c", command.replace("hook session-start", "--version")], { cwd: repo, env });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/\d+\.\d+\.\d+/);
  });

  it("a write that fails halfway (a full disk, here a file-size limit) leaves the file as it was, with nothing beside it", async () => {
    // A team's settings.json can be large (permission lists); a full disk used to leave it cut short.
    const big = { ...FOREIGN_SETTINGS, permissions: { allow: Array.from({ length: 1500 }, (_, i) => `Bash(./scripts/task-${i}.sh:*)`), deny: [] } };
    const before = JSON.stringify(big, null, 2);
    const repo = repoWith({ ".claude/settings.json": before });
    const cli = path.join(ROOT, "cli/bin/baton.mjs");
    // ulimit -f counts 512-byte blocks: 16 KB, under the 40 KB the merged file needs.
    const result = await runProcess("bash", ["-c", `ulimit -f 32 && exec "${process.execPath}" "${cli}" install claude`], { cwd: repo, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/settings\.json could not be written .*nothing was written/);
    expect(read(repo, ".claude/settings.json")).toBe(before);
    expect(readdirSync(path.join(repo, ".claude"))).toEqual(["settings.json"]);
  });

  it("a settings.json that is a symlink (dotfiles) is written where it points and stays a link", async () => {
    const dotfiles = path.join(tmp.dir, "dotfiles");
    mkdirSync(dotfiles, { recursive: true });
    writeFileSync(path.join(dotfiles, "claude-settings.json"), JSON.stringify(FOREIGN_SETTINGS));
    const repo = repoWith({});
    mkdirSync(path.join(repo, ".claude"));
    symlinkSync(path.join(dotfiles, "claude-settings.json"), path.join(repo, ".claude/settings.json"));
    const result = await runBaton(["install", "claude"], { cwd: repo, env });
    expect(result.code, result.stderr).toBe(0);
    expect(lstatSync(path.join(repo, ".claude/settings.json")).isSymbolicLink()).toBe(true);
    const written = JSON.parse(readFileSync(path.join(dotfiles, "claude-settings.json"), "utf8"));
    expect(written.env).toEqual({ FOO: "1" });
    expect(Object.keys(written.hooks)).toEqual(expect.arrayContaining(["SessionStart", "PreToolUse", "SessionEnd"]));
  });

  it.each<{ name: string; files: Record<string, string>; env: Record<string, string>; code: number; stderr: RegExp; args?: string[] }>([
    { name: "settings.json is not JSON", files: { ".claude/settings.json": "{ nope", ".mcp.json": "{}" }, env: env, code: 1, stderr: /\.claude\/settings\.json is not valid JSON/ },
    { name: "hooks is a list", files: { ".claude/settings.json": '{"hooks": []}' }, env: env, code: 1, stderr: /"hooks" is not an object/ },
    { name: ".mcp.json is a list", files: { ".mcp.json": "[]" }, env: env, code: 1, stderr: /\.mcp\.json is not a JSON object/ },
    { name: "no server URL", files: {}, env: homeEnv(path.join(tmp.dir, "home-empty")), code: 2, stderr: /--url/ },
    { name: "an unknown target", files: {}, env: env, code: 2, stderr: /use baton install claude/, args: ["install", "cursor"] },
    // JSON.parse's message quotes the text around the error, line breaks and all.
    { name: "settings.json with comments over several lines", files: { ".claude/settings.json": '// ours\n{ /* x */\n  "env": {}\n}' }, env: env, code: 1, stderr: /\.claude\/settings\.json is not valid JSON/ },
  ])("$name → exit $code and nothing written", async ({ files, env: e, code, stderr, args }) => {
    const repo = repoWith(files);
    const result = await runBaton(args ?? ["install", "claude"], { cwd: repo, env: e });
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(stderr);
    // One line, `baton: …` (README).
    expect(result.stderr).toMatch(/^baton: [^\n]+\n$/);
    for (const [rel, text] of Object.entries(files)) expect(read(repo, rel)).toBe(text);
    if (!(".mcp.json" in files)) expect(existsSync(path.join(repo, ".mcp.json"))).toBe(false);
  });

  it("a settings.json that is a folder is named in the error, and nothing is written", async () => {
    const repo = repoWith({});
    mkdirSync(path.join(repo, ".claude", "settings.json"), { recursive: true });
    const result = await runBaton(["install", "claude"], { cwd: repo, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^baton: \S*\.claude\/settings\.json is not a regular file; fix it first\. Nothing was written\.\n$/);
    expect(existsSync(path.join(repo, ".mcp.json"))).toBe(false);
  });
});

describe("another tool's `<x> hook <event>` hooks at Baton's events", () => {
  const CLAUDE_EVENTS = { SessionStart: "session-start", UserPromptSubmit: "prompt", PreCompact: "pre-compact", SessionEnd: "session-end" };
  const cases = [
    { agent: "claude", file: ".claude/settings.json", inRepo: true, events: CLAUDE_EVENTS, flag: "" },
    { agent: "gemini", file: ".gemini/settings.json", events: { SessionStart: "session-start", BeforeAgent: "prompt", AfterAgent: "stop", SessionEnd: "session-end" }, flag: " --agent gemini" },
    { agent: "codex", file: ".codex/hooks.json", events: CLAUDE_EVENTS, flag: " --agent codex" },
    { agent: "copilot", file: ".copilot/hooks/baton.json", copilot: true, events: { sessionStart: "session-start", userPromptSubmitted: "prompt", preCompact: "pre-compact", sessionEnd: "session-end" }, flag: " --agent copilot" },
  ];
  // Copilot's hook file lists hooks with `bash`; the others group Claude Code's `{ hooks: [{ command }] }`.
  const hookFile = (copilot: boolean, byEvent: Record<string, string[]>) =>
    copilot
      ? { version: 1, hooks: Object.fromEntries(Object.entries(byEvent).map(([e, lines]) => [e, lines.map((bash) => ({ type: "command", bash }))])) }
      : { hooks: Object.fromEntries(Object.entries(byEvent).map(([e, lines]) => [e, [{ hooks: lines.map((command) => ({ type: "command", command })) }]])) };
  type Hooks = Record<string, ({ bash: string } | { hooks: { command: string }[] })[]>;
  const linesIn = (hooks: Hooks) => Object.fromEntries(Object.entries(hooks).map(([e, list]) => [e, list.flatMap((h) => ("bash" in h ? [h.bash] : h.hooks.map((x) => x.command)))]));

  it.each(cases)("$agent: they all stay and Baton's go beside them; an older Baton line is updated; a second run changes nothing", async ({ agent, file, inRepo, copilot, events, flag }) => {
    const home = path.join(tmp.dir, `home-foreign-${agent}`);
    const repo = repoWith({});
    const where = path.join(inRepo ? repo : home, file);
    // What an install from a checkout at a path with a space wrote before shellWord: the path in double quotes.
    const older = `node "/old checkout/cli/bin/baton.mjs" hook session-start${flag}`;
    const before = Object.fromEntries(Object.entries(events).map(([e, sub]) => [e, [`audit-log hook ${sub}`, ...(sub === "session-start" ? [older] : [])]]));
    mkdirSync(path.dirname(where), { recursive: true });
    writeFileSync(where, JSON.stringify(hookFile(!!copilot, before)));
    const run = async () => {
      const result = await runBaton(["install", agent], { cwd: repo, env: homeEnv(home, { BATON_URL: URL_ }) });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout).files as { changes: string[] }[];
    };
    await run();
    expect(linesIn(JSON.parse(readFileSync(where, "utf8")).hooks)).toEqual(
      Object.fromEntries(Object.entries(events).map(([e, sub]) => [e, [`audit-log hook ${sub}`, `${BIN} hook ${sub}${flag}`]])),
    );
    expect((await run()).flatMap((f) => f.changes)).toEqual([]);
  });
});
