import type { HookAdapter } from "../agent";
import { hookSpecificOutput, snakeCaseFacts } from "../hook-fields";

/**
 * Codex CLI's hooks (0.169, as test/integration/agent-codex.test.ts records them) take Claude Code's
 * snake_case stdin — `session_id`, `transcript_path` (its rollout file), `cwd`, `hook_event_name`,
 * `model`; SessionStart adds `source` (startup, resume, clear), UserPromptSubmit `turn_id` and `prompt`,
 * Stop `last_assistant_message`, SessionEnd `reason`, PreCompact `trigger` — and read Claude Code's
 * answer, `hookSpecificOutput.additionalContext`, which reaches the model as a developer message of the turn.
 */
export const codexHook: HookAdapter = {
  name: "codex",
  facts: snakeCaseFacts,
  output: (event, context) => hookSpecificOutput(event === "session-start" ? "SessionStart" : "UserPromptSubmit", context),
};
