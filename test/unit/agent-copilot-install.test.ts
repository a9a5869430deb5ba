import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InstallContext, PlannedFile } from "../../cli/src/agents/agent";
import { copilotInstaller } from "../../cli/src/agents/copilot/install";
import { commandWords } from "../../cli/src/agents/install-files";
import { MergeError } from "../../cli/src/commands/merge-settings";

// `baton install copilot` plans its merges into ~/.copilot/hooks/baton.json and ~/.copilot/mcp-config.json.

let home: string;
const COMMAND = "node /opt/baton/baton.mjs";
const context = (): InstallContext => ({ command: COMMAND, url: "https://baton.example.com", scope: "user", home, root: path.join(home, "repo") });
const hookFile = () => path.join(home, ".copilot/hooks/baton.json");
const mcpFile = () => path.join(home, ".copilot/mcp-config.json");
const write = (file: string, json: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof json === "string" ? json : JSON.stringify(json, null, 2));
};
const byFile = (files: PlannedFile[], file: string) => files.find((f) => f.file === file)!;
const applied = (files: PlannedFile[]) => files.forEach((f) => write(f.file, f.after));
type HookFileJson = { version: number; hooks: Record<string, { type: string; bash: string; timeoutSec?: number }[]> };

beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "baton-copilot-install-"));
  vi.stubEnv("COPILOT_HOME", "");
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

describe("copilotInstaller.plan", () => {
  it("into an empty HOME: Baton's four hooks with their limits in seconds, and `baton mcp` as a local server", () => {
    const { files } = copilotInstaller.plan(context());
    const hooks = JSON.parse(byFile(files, hookFile()).after) as HookFileJson;
    expect(hooks.version).toBe(1);
    expect(hooks.hooks).toEqual({
      sessionStart: [{ type: "command", bash: `${COMMAND} hook session-start --agent copilot`, timeoutSec: 30 }],
      userPromptSubmitted: [{ type: "command", bash: `${COMMAND} hook prompt --agent copilot`, timeoutSec: 10 }],
      preCompact: [{ type: "command", bash: `${COMMAND} hook pre-compact --agent copilot`, timeoutSec: 30 }],
      sessionEnd: [{ type: "command", bash: `${COMMAND} hook session-end --agent copilot`, timeoutSec: 10 }],
    });
    expect(byFile(files, hookFile()).before).toBeNull();
    // No token in Copilot's config: the bridge reads the CLI's own.
    expect(JSON.parse(byFile(files, mcpFile()).after)).toEqual({ mcpServers: { baton: { type: "local", command: "node", args: ["/opt/baton/baton.mjs", "mcp"], tools: ["*"] } } });
  });

  it("keeps what is there: other hooks (at Baton's events too), other MCP servers and their settings", () => {
    const theirs = { type: "command", bash: "./audit.sh", timeoutSec: 5 };
    write(hookFile(), { version: 1, hooks: { preToolUse: [theirs], sessionEnd: [theirs] } });
    write(mcpFile(), { mcpServers: { github: { type: "http", url: "https://api.example.com/mcp" }, baton: { type: "local", command: "baton", args: ["mcp"], env: { DEBUG: "1" } } } });
    const { files } = copilotInstaller.plan(context());
    const hooks = JSON.parse(byFile(files, hookFile()).after) as HookFileJson;
    expect(hooks.hooks.preToolUse).toEqual([theirs]);
    expect(hooks.hooks.sessionEnd).toEqual([theirs, { type: "command", bash: `${COMMAND} hook session-end --agent copilot`, timeoutSec: 10 }]);
    const mcp = JSON.parse(byFile(files, mcpFile()).after) as { mcpServers: Record<string, unknown> };
    expect(mcp.mcpServers.github).toEqual({ type: "http", url: "https://api.example.com/mcp" });
    expect(mcp.mcpServers.baton).toEqual({ type: "local", command: "node", args: ["/opt/baton/baton.mjs", "mcp"], env: { DEBUG: "1" }, tools: ["*"] });
  });

  it("changes nothing the second time", () => {
    applied(copilotInstaller.plan(context()).files);
    const again = copilotInstaller.plan(context()).files;
    expect(again.flatMap((f) => f.changes)).toEqual([]);
    expect(again.every((f) => f.after === f.before)).toBe(true);
  });

  it("updates Baton's hook in place when the command moved, drops a duplicate, and keeps a time limit the user set", () => {
    write(hookFile(), {
      version: 1,
      hooks: {
        sessionStart: [
          { type: "command", bash: "baton hook session-start --agent copilot", timeoutSec: 60 },
          { type: "command", bash: "node /old/baton.mjs hook session-start --agent copilot" },
        ],
      },
    });
    const planned = byFile(copilotInstaller.plan(context()).files, hookFile());
    expect((JSON.parse(planned.after) as HookFileJson).hooks.sessionStart).toEqual([{ type: "command", bash: `${COMMAND} hook session-start --agent copilot`, timeoutSec: 60 }]);
    expect(planned.changes).toEqual(expect.arrayContaining(["updated the sessionStart hook", "removed a duplicate sessionStart hook"]));
  });

  it.each([
    ["a hook file that is not JSON", hookFile, "{ version: 1,"],
    ["an MCP config that is not JSON", mcpFile, "{ mcpServers"],
    ["a hook file of another format version", hookFile, { version: 2, hooks: {} }],
    ["hooks that are not an object", hookFile, { version: 1, hooks: [] }],
    ["an event that is not a list", hookFile, { version: 1, hooks: { sessionStart: {} } }],
    ["mcpServers that is not an object", mcpFile, { mcpServers: [] }],
  ])("refuses %s (an error before anything is written)", (_what, file, content) => {
    write(file(), content);
    expect(() => copilotInstaller.plan(context())).toThrow(MergeError);
  });

  it("writes under COPILOT_HOME when set, where Copilot reads its config then", () => {
    const own = path.join(home, "copilot-home");
    vi.stubEnv("COPILOT_HOME", own);
    expect(copilotInstaller.plan(context()).files.map((f) => f.file)).toEqual([path.join(own, "hooks/baton.json"), path.join(own, "mcp-config.json")]);
  });

  it("says when another hook file adds context at the same events: Copilot passes on one hook's context per event", () => {
    write(path.join(home, ".copilot/hooks/memory.json"), { version: 1, hooks: { userPromptSubmitted: [{ type: "command", bash: "./recall.sh" }] } });
    write(path.join(home, ".copilot/hooks/audit.json"), { version: 1, hooks: { preToolUse: [{ type: "command", bash: "./audit.sh" }] } });
    const { notes } = copilotInstaller.plan(context());
    expect(notes.join("\n")).toContain("memory.json (userPromptSubmitted)");
    expect(notes.join("\n")).not.toContain("audit.json");
  });
});

describe("commandWords (the stdio MCP entry's words)", () => {
  it.each([
    ["baton", ["baton"]],
    ["node /opt/baton/baton.mjs mcp", ["node", "/opt/baton/baton.mjs", "mcp"]],
    [`node "/Users/ana/My Tools/baton.mjs" mcp`, ["node", "/Users/ana/My Tools/baton.mjs", "mcp"]],
    // shellWord single-quotes a path a shell would expand: the quotes are not part of it.
    ["node '/a $HOME `x` b\\c/baton.mjs' mcp", ["node", "/a $HOME `x` b\\c/baton.mjs", "mcp"]],
    ['node "/a \\"q\\" \\$x"/b a\\ b mcp', ["node", '/a "q" $x/b', "a b", "mcp"]],
    ["node '' x", ["node", "", "x"]],
  ])("%s", (line, words) => {
    expect(commandWords(line)).toEqual(words);
  });
});

describe("copilotInstaller.found", () => {
  it("finds Copilot's folder in HOME", () => {
    vi.stubEnv("PATH", "");
    expect(copilotInstaller.found({ home })).toBeNull();
    mkdirSync(path.join(home, ".copilot"));
    expect(copilotInstaller.found({ home })).toBe(path.join(home, ".copilot"));
  });
});
