// Imported by the dispatcher as well as the hook: nothing here but strings.

/** The hook's answer to Claude Code: `context` becomes the session's additional context. */
export function sessionStartOutput(context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } }) + "\n";
}

/** The answer when there is no context to give, saying why. */
export const unavailableOutput = (why: string): string => sessionStartOutput(`Baton: context unavailable (${why}).`);
