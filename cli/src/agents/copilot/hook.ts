import type { HookAdapter } from "../agent";
import { hookFacts } from "../hook-fields";

/**
 * Copilot CLI's session sources in Baton's words: "new" is a fresh session (`copilot -p`, /new),
 * "startup" the first one of an interactive run; "resume" stays.
 */
const SOURCES: Record<string, string> = { new: "startup", startup: "startup", resume: "resume" };

/**
 * GitHub Copilot CLI's hooks: camelCase stdin (`sessionId`, `cwd`, `source`, `prompt`; `transcriptPath`
 * on agentStop and preCompact only, so the transcript reader also finds it from the session id). It
 * reads a top-level `additionalContext` only (`hookSpecificOutput` is ignored), and puts a prompt
 * hook's context into the user's message inside `<system_reminder>`.
 */
export const copilotHook: HookAdapter = {
  name: "copilot",
  facts: (input) =>
    hookFacts({
      sessionId: input.sessionId,
      cwd: input.cwd,
      transcriptPath: input.transcriptPath,
      source: typeof input.source === "string" ? SOURCES[input.source] : undefined,
      prompt: input.prompt,
    }),
  output: (_event, context) => (context ? JSON.stringify({ additionalContext: context }) + "\n" : ""),
};
