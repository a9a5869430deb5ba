import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InstallContext } from "@/cli/src/agents/agent";
import { MergeError } from "@/cli/src/commands/merge-settings";
import { commandWords } from "@/cli/src/agents/install-files";
import { opencodeInstaller } from "@/cli/src/agents/opencode/install";
import { JsoncError, parseJsonc, setJsonc } from "@/cli/src/agents/opencode/jsonc-edit";

// `baton install opencode` plans Baton's plugin file and its MCP server in opencode.json(c), keeping
// everything that is there, comments included.

const ROOT = path.resolve(import.meta.dirname, "../..");
const tmp = mkdtempSync(path.join(tmpdir(), "baton-opencode-install-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeAll(() => {
  // The user config folder follows XDG_CONFIG_HOME, as opencode's does; these cases use HOME's.
  delete process.env.XDG_CONFIG_HOME;
  // The installer writes the plugin as cli/build.mjs built it.
  if (!existsSync(path.join(ROOT, "cli/dist/opencode-plugin.js"))) execFileSync(process.execPath, [path.join(ROOT, "cli/build.mjs")], { cwd: ROOT });
});

let n = 0;
function context(files: Record<string, string> = {}, scope: "user" | "repo" = "user"): InstallContext {
  const home = path.join(tmp, `home-${++n}`);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
    writeFileSync(path.join(home, rel), text);
  }
  return { command: 'node "/opt/my tools/baton.mjs"', url: "http://baton.test", scope, home, root: path.join(home, "repo") };
}
const config = (c: InstallContext, name = "opencode.json") => path.join(c.home, ".config/opencode", name);
/** Writes the plan's files, as `baton install` does. */
function apply(c: InstallContext) {
  const plan = opencodeInstaller.plan(c);
  for (const f of plan.files) {
    mkdirSync(path.dirname(f.file), { recursive: true });
    writeFileSync(f.file, f.after);
  }
  return plan;
}

const SERVER = { type: "local", command: ["node", "/opt/my tools/baton.mjs", "mcp"], enabled: true };

describe("opencodeInstaller.plan", () => {
  it("into an empty HOME: the plugin with the command and the CLI's time limits baked in, and the MCP server in a new opencode.json", () => {
    const c = context();
    const plan = opencodeInstaller.plan(c);
    const [plugin, json] = plan.files;
    expect(plugin!.file).toBe(path.join(c.home, ".config/opencode/plugins/baton.js"));
    expect(plugin!.before).toBeNull();
    expect(plugin!.after).toContain(JSON.stringify(JSON.stringify({ command: c.command, limitsMs: { sessionStart: 30_000, prompt: 10_000, preCompact: 30_000 } })));
    expect(plugin!.after).not.toContain("__BATON_SETTINGS__");
    expect(plugin!.after).not.toMatch(/^import .* from "(?!node:)/m);
    expect(json!.file).toBe(config(c));
    expect(JSON.parse(json!.after)).toEqual({ $schema: "https://opencode.ai/config.json", mcp: { baton: SERVER } });
    expect(json!.changes).toEqual(['added the "baton" MCP server (baton mcp)']);
  });

  it("keeps other MCP servers, providers and comments of an opencode.jsonc, and a second run changes nothing", () => {
    const before = `// my opencode settings
{
  "model": "anthropic/claude", /* the one I pay for */
  "mcp": {
    "github": { "type": "remote", "url": "https://example.com/mcp" }, // trailing comma next
  },
}
`;
    const c = context({ ".config/opencode/opencode.jsonc": before, ".config/opencode/opencode.json": '{"theme":"x"}' });
    const plan = apply(c);
    const after = plan.files[1]!;
    expect(after.file).toBe(config(c, "opencode.jsonc"));
    expect(after.after).toContain("// my opencode settings");
    expect(after.after).toContain("/* the one I pay for */");
    expect(after.after).toContain("// trailing comma next");
    expect(parseJsonc(after.after)).toEqual({ model: "anthropic/claude", mcp: { github: { type: "remote", url: "https://example.com/mcp" }, baton: SERVER } });
    const again = opencodeInstaller.plan(c);
    expect(again.files.map((f) => f.changes)).toEqual([[], []]);
    expect(again.files.map((f) => f.after)).toEqual(plan.files.map((f) => f.after));
  });

  it("updates a stale baton server in place and leaves the rest", () => {
    const c = context({ ".config/opencode/opencode.json": JSON.stringify({ mcp: { baton: { type: "local", command: ["old", "mcp"] }, x: { type: "local", command: ["x"] } }, plugin: ["foo"] }, null, 2) });
    const plan = apply(c);
    expect(plan.files[1]!.changes).toEqual(['updated the "baton" MCP server']);
    expect(JSON.parse(plan.files[1]!.after)).toEqual({ mcp: { baton: SERVER, x: { type: "local", command: ["x"] } }, plugin: ["foo"] });
  });

  it("refuses a config that does not parse, or whose mcp is not an object, before writing anything", () => {
    for (const text of ['{ "mcp": ', '["a"]', '{ "mcp": [] }']) {
      const c = context({ ".config/opencode/opencode.json": text });
      expect(() => opencodeInstaller.plan(c)).toThrow(MergeError);
    }
  });

  it("for a repository: .opencode/plugins/baton.js and the opencode.json at its root", () => {
    const c = context({}, "repo");
    expect(opencodeInstaller.plan(c).files.map((f) => path.relative(c.root, f.file))).toEqual([".opencode/plugins/baton.js", "opencode.json"]);
  });
});

describe("the helpers", () => {
  it("commandWords splits as a shell would, quotes kept together", () => {
    expect(commandWords("baton")).toEqual(["baton"]);
    expect(commandWords('node "/a b/baton.mjs"')).toEqual(["node", "/a b/baton.mjs"]);
    expect(commandWords("node '/a b/c' --x")).toEqual(["node", "/a b/c", "--x"]);
  });

  it("setJsonc adds into an empty object, a one-line object and a nested one", () => {
    expect(JSON.parse(setJsonc("{}", ["a", "b"], 1))).toEqual({ a: { b: 1 } });
    expect(JSON.parse(setJsonc('{"x": 2}', ["a"], [1]))).toEqual({ x: 2, a: [1] });
    expect(JSON.parse(setJsonc('{"a": {"c": "}"}}', ["a", "b"], true))).toEqual({ a: { c: "}", b: true } });
    expect(() => setJsonc('{"a": 3}', ["a", "b"], 1)).toThrow(JsoncError);
  });
});
