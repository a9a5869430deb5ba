import type { PlannedFile } from "../agents/agent";
import { readHookCommand } from "../agents/hook-command";

/** A string in a JSON config, as its text has it (quotes and escapes): a hook command is one. */
const JSON_STRING = /"(?:[^"\\\n]|\\.)*"/g;
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
    // The session-start hook's command (every agent's Baton hooks have one), read as the installers write it.
    for (const [literal] of text.matchAll(JSON_STRING)) {
      const hook = readHookCommand(jsonString(literal), "session-start");
      if (hook) found.add(hook.runner);
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

function jsonString(literal: string): string | null {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null; // not a JSON string after all
  }
}
