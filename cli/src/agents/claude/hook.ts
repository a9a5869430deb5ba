import type { HookAdapter } from "../agent";
import { hookSpecificOutput, snakeCaseFacts } from "../hook-fields";

/** Claude Code's hooks: snake_case stdin; context answered as `hookSpecificOutput.additionalContext`. */
export const claudeHook: HookAdapter = {
  name: "claude",
  facts: snakeCaseFacts,
  output: (event, context) => hookSpecificOutput(event === "session-start" ? "SessionStart" : "UserPromptSubmit", context),
};
