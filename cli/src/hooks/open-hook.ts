import { AGENTS } from "../agents/agents";
import type { HookAdapter, HookEvent, HookFacts } from "../agents/agent";
import { loadConfig, type BatonConfig } from "../config/load-config";
import type { AgentName } from "../../../lib/rules";
import { answerBy } from "./hook-exit";
import { readHookInput } from "./hook-input";
import { hookLog, logConfigWarnings } from "./hook-log";
import { firstToAnswer } from "./hook-once";
import { safeCwd } from "./safe-cwd";

/** Everything a hook starts from: its agent, what the agent's input says, where the session runs, its configuration and time. */
export type OpenedHook = {
  event: HookEvent;
  agent: HookAdapter;
  facts: HookFacts;
  /** The agent's input as it came: the session-end worker reads it again in its own process. */
  input: Record<string, unknown>;
  /** The session's directory (the input's, when it exists), and the configuration read there. */
  cwd: string;
  config: BatonConfig;
  startedAt: number;
  /** The hook's whole time limit, from the configuration. */
  limitMs: number;
};

/** Not opened: the input could not be read (`problem`), or another Baton hook is answering this very input (`duplicate`: answer nothing). */
export type HookOpening = { ok: true; hook: OpenedHook } | { ok: false; problem: string; duplicate?: true; agent: HookAdapter; config: BatonConfig };

/**
 * The opening every hook shares, for every agent: the configuration where the hook was started (for
 * its time limit), a watchdog at that limit (`onLimit` says what to answer then), the agent's stdin read
 * within `stdinShare` of the limit (at most `stdinMaxMs`), the claim on its input (firstToAnswer), its
 * facts, and the configuration again where the session runs when that is elsewhere.
 */
export async function openHook(
  event: HookEvent,
  agentName: AgentName,
  options: { limit: (config: BatonConfig) => number; stdinShare: number; stdinMaxMs: number; onLimit?: (limitMs: number, config: BatonConfig, agent: HookAdapter) => void },
): Promise<HookOpening> {
  const startedAt = Date.now();
  // Where the hook was started, or a folder that exists when that one was deleted (safeCwd).
  const started = safeCwd();
  const early = loadConfig(started);
  logConfigWarnings(event, early.warnings);
  const limitMs = options.limit(early);
  // A chunk of a few hundred bytes, before the watchdog: its answer at the limit is in the agent's shape.
  const agent = await AGENTS[agentName].hook();
  const { onLimit } = options;
  if (onLimit) answerBy(limitMs, () => onLimit(limitMs, early, agent));
  const parsed = await readHookInput(Math.min(options.stdinMaxMs, limitMs * options.stdinShare));
  if (!parsed.ok) {
    hookLog(`${event}: ${parsed.problem}`);
    return { ok: false, problem: parsed.problem, agent, config: early };
  }
  if (!firstToAnswer(event, agentName, parsed.input)) {
    hookLog(`${event}: another Baton hook is answering this input (Baton's hooks are set up twice, as by the Claude Code plugin and baton install); this one answers nothing`);
    return { ok: false, problem: "a duplicate hook", duplicate: true, agent, config: early };
  }
  const facts = agent.facts(parsed.input);
  const cwd = safeCwd(facts.cwd);
  const config = cwd === started ? early : loadConfig(cwd);
  logConfigWarnings(event, config.warnings);
  return { ok: true, hook: { event, agent, facts, input: parsed.input, cwd, config, startedAt, limitMs } };
}
