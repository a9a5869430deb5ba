/**
 * What a developer pastes to connect Claude Code to this server, filled with its address. The same
 * entries `baton install claude` merges into the files (see cli/src/commands/merge-settings.ts).
 */
export function connectSnippets(origin: string) {
  const url = origin.replace(/\/+$/, "");
  const hook = (sub: string) => [{ hooks: [{ type: "command", command: `npx baton hook ${sub}` }] }];
  return {
    env: `export BATON_URL=${url}\nexport BATON_TOKEN=baton_…   # a write token from Settings → API tokens`,
    userConfig: JSON.stringify({ url, token: "baton_…" }, null, 2),
    settings: JSON.stringify({ hooks: { SessionStart: hook("session-start"), SessionEnd: hook("session-end") } }, null, 2),
    mcp: JSON.stringify(
      { mcpServers: { baton: { type: "http", url: `${url}/api/mcp`, headers: { Authorization: "Bearer ${BATON_TOKEN}" } } } },
      null,
      2,
    ),
    install: `BATON_URL=${url} npx baton install claude --dry-run`,
  };
}
