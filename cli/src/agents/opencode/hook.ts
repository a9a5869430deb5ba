import type { HookAdapter } from "../agent";
import { hookFacts } from "../hook-fields";

/**
 * opencode has no command hooks: Baton's plugin (plugin.ts) runs `baton hook <event> --agent opencode`
 * itself, so both ends of this format are Baton's. The input uses Claude Code's field names
 * (plugin-hooks.ts, PluginHookInput); the answer is one object the plugin reads (contextOf).
 */
export const opencodeHook: HookAdapter = {
  name: "opencode",
  facts: (input) =>
    hookFacts({
      sessionId: input.session_id,
      cwd: input.cwd,
      transcriptPath: input.transcript_path,
      source: input.source,
      prompt: input.prompt,
      model: input.model,
    }),
  output: (_event, context) => (context ? JSON.stringify({ additionalContext: context }) + "\n" : ""),
};
