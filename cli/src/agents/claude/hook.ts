import type { HookAdapter } from "../agent";
import { hookFacts, hookSpecificOutput } from "../hook-fields";

/** Claude Code's hooks: snake_case stdin; context answered as `hookSpecificOutput.additionalContext`. */
export const claudeHook: HookAdapter = {
  name: "claude",
  facts: (input) =>
    hookFacts({
      sessionId: input.session_id,
      cwd: input.cwd,
      transcriptPath: input.transcript_path,
      source: input.source,
      prompt: input.prompt,
      lastAssistantMessage: input.last_assistant_message,
      model: input.model,
    }),
  output: (event, context) => hookSpecificOutput(event === "session-start" ? "SessionStart" : "UserPromptSubmit", context),
};
