import type { HookAdapter } from "../agent";
import { claudeHook } from "../claude/hook";

/**
 * opencode has no command hooks: Baton's plugin (plugin.ts) runs `baton hook <event> --agent opencode`
 * itself, so both ends of this format are Baton's. The input uses Claude Code's field names
 * (plugin-hooks.ts, PluginHookInput), read the same way; the answer is one top-level
 * `additionalContext` the plugin reads (plugin-hooks.ts, contextOf).
 */
export const opencodeHook: HookAdapter = {
  name: "opencode",
  facts: claudeHook.facts,
  output: (_event, context) => (context ? JSON.stringify({ additionalContext: context }) + "\n" : ""),
};
