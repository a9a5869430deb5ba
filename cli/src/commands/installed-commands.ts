import type { PlannedFile } from "../agents/agent";

/** A hook command in a JSON config (`"<command> hook session-start[ --agent x]"`), the command its group of Baton's hooks runs. */
const HOOK_IN_JSON = /"((?:[^"\\]|\\.)*?) hook session-start(?: --agent [a-z]+)?"/g;
/** The settings baked into Baton's opencode plugin: a JSON string of JSON, `"{\"command\":…}"`. */
const BAKED_SETTINGS = /"\{\\"command\\":(?:[^"\\]|\\.)*"/g;

/**
 * The commands Baton's hooks run in an agent's configuration as it is now (from each planned file's
 * text before), whatever `baton install --command` they were written with: for `baton doctor`, which
 * plans with the command this CLI would write and must not call an install with another one missing.
 */
export function installedCommands(files: PlannedFile[]): string[] {
  const found = new Set<string>();
  for (const text of files.map((f) => f.before ?? "")) {
    for (const m of text.matchAll(HOOK_IN_JSON)) {
      try {
        found.add(JSON.parse(`"${m[1]}"`) as string);
      } catch {
        // not a JSON string after all
      }
    }
    for (const [literal] of text.matchAll(BAKED_SETTINGS)) {
      try {
        const command = (JSON.parse(JSON.parse(literal) as string) as { command?: unknown }).command;
        if (typeof command === "string") found.add(command);
      } catch {
        // not the plugin's settings
      }
    }
  }
  return [...found];
}
