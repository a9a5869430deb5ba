import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The Claude Code plugin's files are JSON that Claude Code reads (its own checks: `claude plugin
// validate`, in test/integration/cli-plugin.test.ts). Here: what Baton promises about them.
const ROOT = path.resolve(import.meta.dirname, "../..");
const json = (rel: string) => JSON.parse(readFileSync(path.join(ROOT, rel), "utf8"));

describe("the Claude Code plugin", () => {
  const marketplace = json(".claude-plugin/marketplace.json");
  const entry = marketplace.plugins.find((p: { name: string }) => p.name === "baton");
  const pluginDir = path.join(ROOT, entry.source);
  const plugin = json(path.relative(ROOT, path.join(pluginDir, ".claude-plugin/plugin.json")));

  it("is the plugin baton of the marketplace baton, versioned as the server", () => {
    expect(marketplace.name).toBe("baton");
    expect(plugin.name).toBe("baton");
    expect(plugin.version).toBe(json("package.json").version);
  });

  it("runs every hook and the MCP server through its launcher: no npm package name, no npx", () => {
    const hooks = json(path.relative(ROOT, path.join(pluginDir, "hooks/hooks.json"))).hooks as Record<string, { hooks: { command: string }[] }[]>;
    expect(Object.keys(hooks).sort()).toEqual(["PreCompact", "SessionEnd", "SessionStart", "UserPromptSubmit"]);
    const commands = Object.values(hooks).flatMap((groups) => groups.flatMap((g) => g.hooks.map((h) => h.command)));
    for (const command of commands) expect(command).toMatch(/^node "\$\{CLAUDE_PLUGIN_ROOT\}\/bin\/baton\.mjs" hook [a-z-]+$/);
    const mcp = json(path.relative(ROOT, path.join(pluginDir, ".mcp.json"))).mcpServers.baton;
    expect([mcp.command, ...mcp.args]).toEqual(["node", "${CLAUDE_PLUGIN_ROOT}/bin/baton.mjs", "mcp"]);
    expect(JSON.stringify({ hooks, mcp })).not.toMatch(/npx|npm /);
  });

  it("has /remember, which has the agent propose through its launcher, and every command says what it is for", () => {
    const dir = path.join(pluginDir, "commands");
    const files = readdirSync(dir).filter((f) => f.endsWith(".md"));
    expect(files).toContain("remember.md");
    for (const file of files) {
      const text = readFileSync(path.join(dir, file), "utf8");
      const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? "";
      expect(front, file).toMatch(/^description: \S.{10,}$/m);
      expect(text, file).not.toMatch(/npx|npm /);
    }
    const remember = readFileSync(path.join(dir, "remember.md"), "utf8");
    // The learning after `--`, so that one starting with a dash is not taken for an option.
    expect(remember).toContain('node "${CLAUDE_PLUGIN_ROOT}/bin/baton.mjs" remember --kind <pattern|insight> -- "<the learning>"');
    expect(remember).toMatch(/^allowed-tools: Bash\(node:\*\)$/m);
    expect(remember).toContain("$ARGUMENTS");
  });
});
