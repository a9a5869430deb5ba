import type { HookAdapter } from "../agent";
import { hookFacts, hookSpecificOutput } from "../hook-fields";

/**
 * Context Gemini CLI put in front of what the user typed: in `gemini -p` the SessionStart hook's context
 * is prepended to the prompt, wrapped as `<hook_context>…</hook_context>`, and BeforeAgent and AfterAgent
 * hooks get that joined text as `prompt` (Gemini CLI 0.61). The prompt stage searches on the user's words only.
 */
const LEADING_HOOK_CONTEXT = /^\s*(?:<hook_context>[\s\S]*?<\/hook_context>\s*)+/;

/** What the user typed, without the hook context Gemini CLI prepended. */
export const typedPrompt = (prompt: unknown): unknown => (typeof prompt === "string" ? prompt.replace(LEADING_HOOK_CONTEXT, "") : prompt);

/**
 * Gemini CLI's hooks: snake_case stdin (`session_id, transcript_path, cwd, hook_event_name, timestamp`, and
 * `source` at SessionStart, `prompt` at BeforeAgent, `prompt_response` at AfterAgent); no model in any of
 * them (the transcript names it). Context is answered as `hookSpecificOutput.additionalContext` under
 * Gemini's own event names, and Gemini CLI wraps it in `<hook_context>`.
 */
export const geminiHook: HookAdapter = {
  name: "gemini",
  facts: (input) =>
    hookFacts({
      sessionId: input.session_id,
      cwd: input.cwd,
      transcriptPath: input.transcript_path,
      source: input.source,
      prompt: typedPrompt(input.prompt),
      lastAssistantMessage: input.prompt_response,
    }),
  output: (event, context) => hookSpecificOutput(event === "session-start" ? "SessionStart" : "BeforeAgent", context),
};
