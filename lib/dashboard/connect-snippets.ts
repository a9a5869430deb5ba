import { AGENT_NAMES, HOOK_TIMEOUT_SECONDS } from "@/lib/rules";

/**
 * What a developer runs or pastes to connect their coding agents to this server, filled with its address:
 * the CLI from this server (install.sh), the Claude Code plugin, or the per-repository files that
 * `baton install claude` merges (see cli/src/commands/merge-settings.ts). Never an npm package name:
 * the npm package called baton belongs to somebody else.
 */
export function connectSnippets(origin: string) {
  const url = origin.replace(/\/+$/, "");
  // `baton` as install.sh puts it on PATH (~/.local/bin): one line that works for the whole team. The
  // entries are what `baton install claude` writes (cli/src/agents/claude/install.ts), time limits included.
  const hook = (sub: string, timeout?: number) => [{ hooks: [{ type: "command", command: `baton hook ${sub}`, ...(timeout === undefined ? {} : { timeout }) }] }];
  return {
    install: `curl -fsSL ${url}/install.sh | sh`,
    // A server whose certificate a team's own CA signed: curl, the CLI and its hooks must all trust that CA.
    installWithCa: `curl --cacert team-ca.pem -fsSL ${url}/install.sh | BATON_CA_FILE="$PWD/team-ca.pem" sh`,
    login: "baton login",
    env: `export BATON_URL=${url} BATON_TOKEN=baton_…`,
    plugin: `claude plugin marketplace add <a git URL or local clone of the Baton repository>\nclaude plugin install baton@baton --config url=${url}`,
    installClaude: "baton install claude --dry-run",
    // Each other agent's hooks and MCP entry, in its own configuration format (cli/src/agents/<agent>/install.ts).
    installAgents: AGENT_NAMES.filter((agent) => agent !== "claude")
      .map((agent) => `baton install ${agent}`)
      .concat("baton doctor")
      .join("\n"),
    settings: JSON.stringify(
      {
        hooks: {
          SessionStart: hook("session-start", HOOK_TIMEOUT_SECONDS.sessionStart),
          UserPromptSubmit: hook("prompt", HOOK_TIMEOUT_SECONDS.prompt),
          PreCompact: hook("pre-compact", HOOK_TIMEOUT_SECONDS.preCompact),
          SessionEnd: hook("session-end"),
        },
      },
      null,
      2,
    ),
    // The stdio bridge, as `baton install claude` writes it: it finds the token where the CLI keeps it.
    mcp: JSON.stringify({ mcpServers: { baton: { type: "stdio", command: "baton", args: ["mcp"] } } }, null, 2),
  };
}
