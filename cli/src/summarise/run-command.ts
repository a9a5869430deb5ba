import { HOOKS_OFF } from "../hooks/hooks-off";
import { runChild } from "./run-child";

/** The time a summariser command gets (it runs in the detached worker: nobody waits on it). */
const COMMAND_MS = 120_000;

/**
 * A summariser command (`summariser` set to a shell command): given the transcript's path on stdin
 * (and in BATON_TRANSCRIPT_PATH), it prints the handoff as markdown. The markdown, or what went wrong.
 * Baton's hooks are off in it, as in the built-in summarisers: a command that runs an agent
 * (`claude -p "summarise $BATON_TRANSCRIPT_PATH"`) would otherwise get Baton's context, and its own
 * end would run this worker again, a summariser per summariser, each posting a handoff.
 */
export async function runSummariserCommand(command: string, transcriptPath: string, cwd: string, sessionId: string | null): Promise<{ ok: true; markdown: string } | { ok: false; problem: string }> {
  const run = await runChild(command, [], {
    input: `${transcriptPath}\n`,
    cwd,
    env: { ...process.env, ...HOOKS_OFF, BATON_TRANSCRIPT_PATH: transcriptPath, BATON_SESSION_ID: sessionId ?? "" },
    limitMs: COMMAND_MS,
    shell: true,
  });
  if (!run.ok) return run;
  return run.stdout.trim() ? { ok: true, markdown: run.stdout } : { ok: false, problem: "it printed nothing" };
}
