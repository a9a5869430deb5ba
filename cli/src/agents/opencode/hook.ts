import type { HookAdapter, HookFacts } from "../agent";

// opencode has no command hooks: Baton's plugin (plugin.ts) runs `baton hook <event> --agent opencode`
// itself, so both ends of this format are Baton's. The input uses Claude Code's field names
// (plugin-hooks.ts, PluginHookInput); the output is one object the plugin reads (contextOf).

const MAX_FIELD = 1_000_000;
const str = (value: unknown): string | null => (typeof value === "string" && value.trim() && value.length <= MAX_FIELD ? value.trim() : null);
const SOURCES = new Set(["startup", "resume", "clear", "compact"]);

export const opencodeHook: HookAdapter = {
  name: "opencode",
  facts(input: Record<string, unknown>): HookFacts {
    const cwd = str(input.cwd);
    const source = str(input.source);
    return {
      sessionId: str(input.session_id),
      cwd: cwd && cwd.startsWith("/") ? cwd : null,
      transcriptPath: str(input.transcript_path),
      source: source && SOURCES.has(source) ? source : null,
      prompt: str(input.prompt),
      lastAssistantMessage: null,
      model: str(input.model),
    };
  },
  output(_event, context) {
    return context ? JSON.stringify({ additionalContext: context }) : "";
  },
};
