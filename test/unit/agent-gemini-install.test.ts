import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InstallContext } from "@/cli/src/agents/agent";
import { geminiInstaller, hasJsonComments } from "@/cli/src/agents/gemini/install";
import { MergeError } from "@/cli/src/commands/merge-settings";

const tmp = mkdtempSync(path.join(tmpdir(), "baton-gemini-install-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A HOME and a repository of their own for each case, with `settings` (text) as ~/.gemini/settings.json when given. */
function context(settings?: string, extra: Partial<InstallContext> = {}): InstallContext & { file: string } {
  const dir = path.join(tmp, `case-${++n}`);
  const home = path.join(dir, "home");
  const root = path.join(dir, "repo");
  mkdirSync(path.join(home, ".gemini"), { recursive: true });
  mkdirSync(root, { recursive: true });
  const file = path.join(home, ".gemini", "settings.json");
  if (settings !== undefined) writeFileSync(file, settings);
  return { command: "node /opt/baton/baton.mjs", url: "https://baton.example.com", scope: "user", home, root, file, ...extra };
}

const after = (ctx: InstallContext) => JSON.parse(geminiInstaller.plan(ctx).files[0]!.after) as Record<string, unknown>;
const batonHook = (subcommand: string, timeout: number) => ({
  hooks: [{ type: "command", command: `node /opt/baton/baton.mjs hook ${subcommand} --agent gemini`, timeout, name: `baton-${subcommand}` }],
});

describe("baton install gemini (the plan)", () => {
  it("into an empty HOME: ~/.gemini/settings.json with the hooks (limits in ms) and the stdio MCP server", () => {
    const ctx = context();
    const plan = geminiInstaller.plan(ctx);
    expect(plan.files.map((f) => [f.file, f.before])).toEqual([[ctx.file, null]]);
    expect(JSON.parse(plan.files[0]!.after)).toEqual({
      hooks: {
        SessionStart: [batonHook("session-start", 30_000)],
        BeforeAgent: [batonHook("prompt", 10_000)],
        AfterAgent: [batonHook("stop", 10_000)],
        SessionEnd: [batonHook("session-end", 10_000)],
      },
      mcpServers: { baton: { command: "node", args: ["/opt/baton/baton.mjs", "mcp"] } },
    });
    expect(plan.files[0]!.changes).toEqual([
      "added the SessionStart hook",
      "added the BeforeAgent hook",
      "added the AfterAgent hook",
      "added the SessionEnd hook",
      'added the "baton" MCP server',
    ]);
    expect(JSON.stringify(plan)).not.toMatch(/PreCompress|BATON_TOKEN|baton_/);
    expect(plan.notes.join("\n")).toMatch(/"Do you trust the files in this folder\?": choose "Trust folder"/);
  });

  it("keeps what is there: other hooks (in the same group and others), other servers, other settings; a user's limit stays", () => {
    const existing = {
      security: { auth: { selectedType: "gemini-api-key" } },
      hooks: {
        SessionStart: [{ matcher: "*", hooks: [{ name: "mine", type: "command", command: "echo hi", timeout: 500 }, { type: "command", command: "baton hook session-start --agent gemini", timeout: 45_000 }] }],
        BeforeTool: [{ matcher: "write_.*", hooks: [{ type: "command", command: "./check.sh" }] }],
      },
      mcpServers: { github: { command: "gh-mcp", args: [] } },
    };
    const ctx = context(JSON.stringify(existing, null, 2));
    const plan = geminiInstaller.plan(ctx);
    const json = JSON.parse(plan.files[0]!.after);
    expect(json.security).toEqual(existing.security);
    expect(json.hooks.BeforeTool).toEqual(existing.hooks.BeforeTool);
    expect(json.hooks.SessionStart).toEqual([
      {
        matcher: "*",
        hooks: [
          { name: "mine", type: "command", command: "echo hi", timeout: 500 },
          { type: "command", command: "node /opt/baton/baton.mjs hook session-start --agent gemini", timeout: 45_000, name: "baton-session-start" },
        ],
      },
    ]);
    expect(json.mcpServers.github).toEqual(existing.mcpServers.github);
    expect(json.mcpServers.baton).toEqual({ command: "node", args: ["/opt/baton/baton.mjs", "mcp"] });
    expect(plan.files[0]!.changes).toContain("updated the SessionStart hook");
  });

  it("run twice changes nothing, and removes a duplicate Baton hook", () => {
    const ctx = context();
    const once = geminiInstaller.plan(ctx).files[0]!.after;
    writeFileSync(ctx.file, once);
    const again = geminiInstaller.plan(ctx).files[0]!;
    expect(again.changes).toEqual([]);
    expect(again.after).toBe(once);

    const doubled = JSON.parse(once);
    doubled.hooks.BeforeAgent.push(batonHook("prompt", 10_000));
    writeFileSync(ctx.file, JSON.stringify(doubled));
    const fixed = geminiInstaller.plan(ctx).files[0]!;
    expect(fixed.changes).toEqual(["removed a duplicate BeforeAgent hook"]);
    expect(JSON.parse(fixed.after)).toEqual(JSON.parse(once));
  });

  it("gives an existing Baton hook without a limit its limit in ms, said in seconds", () => {
    const ctx = context(JSON.stringify({ hooks: { BeforeAgent: [{ hooks: [{ type: "command", command: "node /opt/baton/baton.mjs hook prompt --agent gemini" }] }] } }));
    const plan = geminiInstaller.plan(ctx).files[0]!;
    expect(plan.changes).toContain("gave the BeforeAgent hook a time limit of 10 s");
    expect(JSON.parse(plan.after).hooks.BeforeAgent).toEqual([batonHook("prompt", 10_000)]);
  });

  it("refuses a settings.json that does not parse, or whose shape is wrong, and one with comments it would lose", () => {
    for (const text of ["{ not json", "[1, 2]", JSON.stringify({ hooks: [] }), JSON.stringify({ hooks: { SessionStart: {} } }), JSON.stringify({ mcpServers: { baton: "x" } })]) {
      expect(() => geminiInstaller.plan(context(text)), text).toThrow(MergeError);
    }
    const commented = context('{\n  // my theme\n  "ui": { "theme": "GitHub" }\n}\n');
    expect(() => geminiInstaller.plan(commented)).toThrow(/has comments, which Baton would lose/);
  });

  it("at repository scope: <repo>/.gemini/settings.json, and the note on Gemini's warning about new project hooks", () => {
    const ctx = context(undefined, { scope: "repo" });
    const plan = geminiInstaller.plan(ctx);
    expect(plan.files[0]!.file).toBe(path.join(ctx.root, ".gemini", "settings.json"));
    expect(plan.notes.join("\n")).toMatch(/warns once about each new project hook/);
    expect(geminiInstaller.scopes).toEqual(["user", "repo"]);
  });

  it("says when the user turned hooks off in Gemini's settings", () => {
    expect(geminiInstaller.plan(context(JSON.stringify({ hooksConfig: { enabled: false } }))).notes.join("\n")).toMatch(/Hooks are turned off/);
    expect(after(context(JSON.stringify({ hooksConfig: { enabled: false } }))).hooksConfig).toEqual({ enabled: false });
  });

  it("finds Gemini CLI by its ~/.gemini folder", () => {
    const ctx = context();
    expect(geminiInstaller.found({ home: ctx.home })).toBe(path.join(ctx.home, ".gemini"));
    expect(geminiInstaller.found({ home: path.join(tmp, "nobody") })).toBe(null);
  });
});

describe("hasJsonComments", () => {
  it("hasJsonComments sees comments outside strings only", () => {
    expect(hasJsonComments('{"url": "https://x.example"}')).toBe(false);
    expect(hasJsonComments('{"a": "say \\"/*\\""}')).toBe(false);
    expect(hasJsonComments('{"a": 1} // note')).toBe(true);
    expect(hasJsonComments('{/* c */"a": 1}')).toBe(true);
  });
});
