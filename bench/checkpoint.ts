/**
 * What the pre-compact hook does before it can send a checkpoint, on long transcripts, against a
 * baseline in the same run: read the transcript's last 8 MB (as the hook does, MAX_CHECKPOINT_TRANSCRIPT),
 * redact it, build the handoff. Redacting the whole transcript (redactTranscript, what the session-end
 * worker does for proposals) is the baseline; the hook redacts only what a handoff shows
 * (redactHandoffFacts). Both must give the same handoff but for its count of secrets withheld (printed). Printed per shape: events read,
 * each step's least time of --runs, and the hook's work as a ratio of the baseline's. The hook has
 * 2,000 ms (timeoutMs) for all of it, node's start and the request included; no assertion.
 *
 *   npx tsx bench/checkpoint.ts [--mb 30] [--runs 3]
 *
 * Shapes, in Claude Code's JSONL (made up here): many small steps (a command and 200 characters of output
 * each: a long autonomous session), and few large outputs (20 KB each: test runs, logs).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { AGENTS } from "../cli/src/agents/agents";
import { buildHandoff } from "../cli/src/transcript/build-handoff";
import { redactHandoffFacts, redactTranscript } from "../cli/src/transcript/redact-transcript";
import { SecretRedactor } from "../lib/secrets/redact-secrets";
import { leastTime } from "./least-time";

const { values } = parseArgs({ options: { mb: { type: "string", default: "30" }, runs: { type: "string", default: "3" } } });
const bytes = Number(values.mb) * 1e6;
const runs = Number(values.runs);
const MAX_CHECKPOINT_TRANSCRIPT = 8 * 1024 * 1024;

function transcript(output: number): string {
  const id = "bench-checkpoint";
  const lines = [JSON.stringify({ type: "user", sessionId: id, cwd: "/src/web", message: { role: "user", content: "Refactor the parser, file by file. The staging password is Pl4in-Text-77, keep it out of commits." } })];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const step = [
      { type: "assistant", sessionId: id, timestamp: new Date(Date.UTC(2026, 10, 28, 10, 0, i)).toISOString(), message: { role: "assistant", content: [{ type: "text", text: `Step ${i}: checking src/f${i}.ts with token=ghp_${String(i).padStart(36, "x")}` }, { type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `grep -n parse src/f${i}.ts` } }] } },
      { type: "user", sessionId: id, message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `src/f${i}.ts:1: parse(input) // AKIA${String(i).padStart(16, "Q")} `.repeat(Math.ceil(output / 60)).slice(0, output) }] } },
    ].map((e) => JSON.stringify(e));
    lines.push(...step);
    size += step[0]!.length + step[1]!.length;
  }
  lines.push(JSON.stringify({ type: "assistant", sessionId: id, message: { role: "assistant", content: [{ type: "text", text: "Done: every file parses." }] } }));
  return lines.join("\n") + "\n";
}

const least = (work: () => void) => leastTime(runs, work);

const dir = mkdtempSync(path.join(tmpdir(), "baton-bench-checkpoint-"));
try {
  const reader = await AGENTS.claude.transcript();
  for (const [shape, output] of [["many small steps", 200], ["few large outputs", 20_000]] as const) {
    const file = path.join(dir, `${output}.jsonl`);
    writeFileSync(file, transcript(output));
    const facts = { sessionId: "bench-checkpoint", transcriptPath: file } as Parameters<typeof reader.read>[0];
    const read = () => reader.read(facts, { maxBytes: MAX_CHECKPOINT_TRANSCRIPT, onError: (m) => console.error(m) })!;
    const session = read();
    // The withheld count is left out of the comparison: the hook counts what it withheld from the handoff.
    const handoffOf = (redact: typeof redactTranscript, counted = true) => {
      const redactor = new SecretRedactor();
      const transcript = redact(session, redactor);
      return buildHandoff({ transcript, lastAssistantMessage: null, cwd: "/src/web", sessionId: "bench-checkpoint", withheld: counted ? redactor.summary() : null, checkpoint: true });
    };
    const readMs = least(read);
    const whole = least(() => handoffOf(redactTranscript));
    const shown = least(() => handoffOf(redactHandoffFacts));
    const same = handoffOf(redactTranscript, false) === handoffOf(redactHandoffFacts, false);
    console.log(
      `${shape.padEnd(18)} ${values.mb} MB, ${session.events.length} events read: read ${readMs.toFixed(0)} ms; redact + build: whole transcript (baseline) ${whole.toFixed(0)} ms, what a handoff shows ${shown.toFixed(0)} ms (${(shown / whole).toFixed(2)}×); the hook's work ${(readMs + shown).toFixed(0)} ms (${((readMs + shown) / (readMs + whole)).toFixed(2)}× the baseline's); same handoff: ${same}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
