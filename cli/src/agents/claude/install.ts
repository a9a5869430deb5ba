import path from "node:path";
import type { Installer } from "../agent";
import { mergeHooks, mergeMcp, type Json } from "../../commands/merge-settings";
import { folderIfAny, onPath } from "../find-agent";
import { HOOK_TIMEOUT_SECONDS } from "../../../../lib/rules";
import { planJson, readJsonConfig, runsMcpEntry, stdioMcpServer } from "../install-files";
import { hookCommand } from "../hook-command";

/**
 * Baton's hooks (SessionStart, UserPromptSubmit, PreCompact, SessionEnd) into the repository's
 * `.claude/settings.json` and its MCP server into `.mcp.json`. (The Claude Code plugin is the user-wide way.)
 */
export const claudeInstaller: Installer = {
  scopes: ["repo"],
  plan({ command, root }) {
    const mcpFile = path.join(root, ".mcp.json");
    // Claude Code's hook lines carry no --agent: the runner of the MCP entry tells an earlier install's hooks
    // from another tool's of the same shape.
    const earlier = runsMcpEntry((readJsonConfig(mcpFile).json.mcpServers as Json | undefined)?.baton);
    const hooks = planJson(path.join(root, ".claude", "settings.json"), (json) => {
      const { settings, changes } = mergeHooks(json, [
        { event: "SessionStart", command: hookCommand(command, "session-start"), subcommand: "session-start", timeout: HOOK_TIMEOUT_SECONDS.sessionStart },
        { event: "UserPromptSubmit", command: hookCommand(command, "prompt"), subcommand: "prompt", timeout: HOOK_TIMEOUT_SECONDS.prompt },
        { event: "PreCompact", command: hookCommand(command, "pre-compact"), subcommand: "pre-compact", timeout: HOOK_TIMEOUT_SECONDS.preCompact },
        { event: "SessionEnd", command: hookCommand(command, "session-end"), subcommand: "session-end" },
      ], earlier);
      return { json: settings, changes };
    });
    const mcp = planJson(mcpFile, (json) => {
      const { mcp: merged, changes } = mergeMcp(json, { type: "stdio", ...stdioMcpServer(command) });
      return { json: merged, changes };
    });
    return {
      files: [hooks, mcp],
      notes: ["The MCP server runs `baton mcp`, which finds the server and token as the hooks do (`baton login` keeps them in ~/.config/baton/config.json): no secret is written into .mcp.json."],
    };
  },
  found: ({ home }) => onPath("claude") ?? folderIfAny(path.join(home, ".claude")),
};
