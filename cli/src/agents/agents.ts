import type { AgentName } from "../../../lib/rules";
import type { HookAdapter, Installer, TranscriptReader } from "./agent";

/**
 * The table of agents: each one's adapter, loaded when used, so a hook loads only its agent's small
 * hook module. A sixth agent is one folder and one line here (and its name in agent-names.ts).
 */
type Adapter = {
  hook: () => Promise<HookAdapter>;
  transcript: () => Promise<TranscriptReader>;
  installer: () => Promise<Installer>;
};

export const AGENTS: Record<AgentName, Adapter> = {
  claude: {
    hook: async () => (await import("./claude/hook")).claudeHook,
    transcript: async () => (await import("./claude/transcript")).claudeTranscript,
    installer: async () => (await import("./claude/install")).claudeInstaller,
  },
  codex: {
    hook: async () => (await import("./codex/hook")).codexHook,
    transcript: async () => (await import("./codex/transcript")).codexTranscript,
    installer: async () => (await import("./codex/install")).codexInstaller,
  },
  gemini: {
    hook: async () => (await import("./gemini/hook")).geminiHook,
    transcript: async () => (await import("./gemini/transcript")).geminiTranscript,
    installer: async () => (await import("./gemini/install")).geminiInstaller,
  },
  copilot: {
    hook: async () => (await import("./copilot/hook")).copilotHook,
    transcript: async () => (await import("./copilot/transcript")).copilotTranscript,
    installer: async () => (await import("./copilot/install")).copilotInstaller,
  },
  opencode: {
    hook: async () => (await import("./opencode/hook")).opencodeHook,
    transcript: async () => (await import("./opencode/transcript")).opencodeTranscript,
    installer: async () => (await import("./opencode/install")).opencodeInstaller,
  },
};
