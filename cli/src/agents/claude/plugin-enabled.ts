import path from "node:path";
import { readJsonConfig } from "../install-files";

/** The plugin's name in its manifest (plugins/baton/.claude-plugin/plugin.json); Claude Code keys it `baton@<marketplace>`. */
const PLUGIN = "baton@";

/**
 * Where Claude Code has Baton's plugin enabled (`enabledPlugins: { "baton@<marketplace>": true }`): in
 * the user's settings, the repository's, or the repository's local ones, most specific last. The plugin
 * brings Baton's hooks and MCP server to every session, so the doctor counts it as installed. A setting
 * that says false (disabled where it is more specific) wins over one further out.
 */
export function pluginEnabledIn({ home, root }: { home: string; root: string | null }): string | null {
  const files = [path.join(home, ".claude", "settings.json"), ...(root ? [path.join(root, ".claude", "settings.json"), path.join(root, ".claude", "settings.local.json")] : [])];
  let enabled: string | null = null;
  for (const file of files) {
    let json: Record<string, unknown>;
    try {
      json = readJsonConfig(file).json;
    } catch {
      continue;
    }
    const plugins = json.enabledPlugins;
    if (!plugins || typeof plugins !== "object" || Array.isArray(plugins)) continue;
    for (const [id, on] of Object.entries(plugins)) {
      if (!id.startsWith(PLUGIN) || typeof on !== "boolean") continue;
      enabled = on ? file : null;
    }
  }
  return enabled;
}
