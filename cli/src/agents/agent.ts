import type { AgentName } from "../../../lib/rules";
import type { Session } from "./session";

/**
 * The moments Baton hooks into, in its own words; each agent's adapter maps its own event names
 * onto these (Codex's UserPromptSubmit, Gemini's BeforeAgent, Copilot's userPromptSubmitted …).
 * `stop` is the end of a turn: for agents that do not wait for their session-end hook, the handoff
 * is written there, and rewritten at every later turn.
 */
export type HookEvent = "session-start" | "prompt" | "pre-compact" | "session-end" | "stop";

/** What a hook's input says, in one shape whatever the agent sent (null: the agent did not say). */
export type HookFacts = {
  sessionId: string | null;
  /** The session's directory, when it is an absolute path. */
  cwd: string | null;
  transcriptPath: string | null;
  /** Why the session started: startup, resume, clear or compact (others are dropped). */
  source: string | null;
  /** What the user typed (prompt hooks). */
  prompt: string | null;
  lastAssistantMessage: string | null;
  /** The model, when the hook input names it. */
  model: string | null;
};

/**
 * The hook half of an agent adapter: it runs at every session start and prompt, so it is node
 * built-ins only (test/unit/cli-hook-imports.test.ts) and does no I/O.
 */
export type HookAdapter = {
  name: AgentName;
  /** The agent's stdin JSON object, read into the facts Baton uses. */
  facts(input: Record<string, unknown>): HookFacts;
  /** What the hook prints so that the agent adds `context` to the session ("" when there is none). */
  output(event: "session-start" | "prompt", context: string): string;
};

/** The transcript half: read by the detached session-end worker and the pre-compact checkpoint only. */
export type TranscriptReader = {
  /** The session as far as the transcript goes (of a huge one, its last `maxBytes`); null when there is none to read. */
  read(facts: HookFacts, options: { maxBytes: number; onError: (message: string) => void }): Session | null;
};

/** Where and how `baton install <agent>` writes. */
export type InstallContext = {
  /** What the agent's hooks run, e.g. `baton` or `node /abs/path/baton.mjs`; never an npm package name. */
  command: string;
  /** The Baton server's URL (no trailing slash). */
  url: string;
  /** `user`: the agent's config in HOME; `repo`: the repository's (root below). */
  scope: "user" | "repo";
  home: string;
  /** The repository root (or the working directory outside one). */
  root: string;
  /** The user's config file, where a --url given to install is kept (null without a home folder). */
  userConfigFile?: string | null;
};

/** One file the installer would write: its text before (null: new) and after, and what changed, in words. */
export type PlannedFile = { file: string; before: string | null; after: string; changes: string[] };

export type InstallPlan = {
  files: PlannedFile[];
  /** What the user must still do or confirm (trust prompts, restarts), said after installing. */
  notes: string[];
};

/** The installer half: plans every change first (for --dry-run and for doctor), writes nothing itself. */
export type Installer = {
  /** Which scopes this agent's config supports, the default first. */
  scopes: readonly ("user" | "repo")[];
  plan(context: InstallContext): InstallPlan;
  /** Whether the agent is on this machine (its binary on PATH, or its config folder in HOME), and where. */
  found(context: Pick<InstallContext, "home">): string | null;
};
