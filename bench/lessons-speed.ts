/**
 * The lesson extractor's speed on a long transcript, against a baseline timed in the same run: reading
 * the transcript (parseClaudeTranscript) is linear in its size, so "extractLessons takes R × the parse"
 * stays comparable across machines, where milliseconds do not. An extractor that is quadratic in the
 * session's length shows as a ratio that grows with --events; a near-linear one keeps it about flat.
 * The session-end worker runs the extractor on the whole transcript at every session's end, and
 * Gemini/opencode/Copilot at every turn's end.
 *
 *   npx tsx bench/lessons-speed.ts [--events 25000] [--output 500] [--file transcript.jsonl] [--runs 3]
 *
 * The transcript is made up here (Claude Code's JSONL, five events a turn: the user's request with a
 * "no, …" every fifth turn, the agent offering a choice and running the tests, their output, failing
 * every other turn, the agent explaining a cause and editing a file, the edit's result): 25,000 events
 * with --output 500 is about 14.5 MB, 50,000 about 29 MB, the sizes an audit measured. --file reads a
 * real transcript instead. Prints each finder's time on the whole session (how the reading scales), the
 * ratios, the least CPU time of --runs runs each, and the process's peak RSS; extractLessons itself reads at most
 * the last MAX_LESSON_EVENTS events. No assertion: a timed assertion in a test fails on a busy machine,
 * not on a slow extractor.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseClaudeTranscript } from "../cli/src/agents/claude/transcript";
import { extractLessons, MAX_LESSON_EVENTS } from "../cli/src/lessons/extract-lessons";
import { findCorrections } from "../cli/src/lessons/find-corrections";
import { findExplicit } from "../cli/src/lessons/find-explicit";
import { findResolvedFailures } from "../cli/src/lessons/find-failures";
import { findDecisions, findFacts } from "../cli/src/lessons/find-statements";
import { linesOf } from "../cli/src/lessons/session-lines";

const { values } = parseArgs({ options: { events: { type: "string", default: "25000" }, output: { type: "string", default: "500" }, file: { type: "string" }, runs: { type: "string", default: "3" } } });

/** A Claude Code transcript of `turns` turns of five events each, each tool output `outSize` characters. */
function longTranscript(turns: number, outSize: number): string {
  let n = 0;
  const ts = () => new Date(Date.UTC(2026, 0, 1) + n++ * 1000).toISOString();
  const base = { sessionId: "beef0000-3456-7890-abcd-ef1234567890", cwd: "/tmp/bench/repo", gitBranch: "main", version: "2.1.0" };
  const words = "the build of module config loader uses cache when port server test handler route value because only since never".split(" ");
  const sentence = (k: number) => `${Array.from({ length: 12 }, (_, j) => words[(k * 7 + j * 3) % words.length]).join(" ")}.`;
  const user = (content: unknown) => JSON.stringify({ ...base, type: "user", timestamp: ts(), message: { role: "user", content } });
  const assistant = (content: unknown) => JSON.stringify({ ...base, type: "assistant", timestamp: ts(), message: { role: "assistant", model: "claude-x", content } });
  const out: string[] = [];
  for (let t = 0; t < turns; t++) {
    const mod = `src/mod_${t % 50}`;
    const output = `FAIL ${mod}/file.test.ts error: expected 1 got 2 at line ${t}\n`.repeat(Math.ceil(outSize / 60)).slice(0, outSize);
    out.push(
      user(`${t % 5 === 0 ? "no, " : ""}${sentence(t)} ${sentence(t + 1)} Please update ${mod}/file_${t}.ts`),
      assistant([{ type: "text", text: `${sentence(t + 2)} ${sentence(t + 3)} I'd go with option A or option B?` }, { type: "tool_use", id: `c${t}`, name: "Bash", input: { command: `npm test -- ${mod}` } }]),
      user([{ type: "tool_result", tool_use_id: `c${t}`, content: output, is_error: t % 2 === 0 }]),
      assistant([
        { type: "text", text: `The cause is that the config loader only reads PORT_${t % 9} because of the cache. ${sentence(t + 4)}` },
        { type: "tool_use", id: `e${t}`, name: "Edit", input: { file_path: `/tmp/bench/repo/${mod}/file_${t}.ts`, old_string: "a".repeat(200), new_string: "b".repeat(200) } },
      ]),
      user([{ type: "tool_result", tool_use_id: `e${t}`, content: "ok" }]),
    );
  }
  return `${out.join("\n")}\n`;
}

/**
 * The least CPU time (user and system, this process's threads: the garbage collector's too) of `runs`
 * runs of `run`, printed, with its last result. CPU time rather than the clock's: on a shared machine
 * the clock counts other processes' turns too.
 */
function timed<T>(label: string, run: () => T): { value: T; ms: number } {
  let best = { value: undefined as T, ms: Number.POSITIVE_INFINITY };
  for (let k = 0; k < runs; k++) {
    const start = process.cpuUsage();
    const value = run();
    const used = process.cpuUsage(start);
    best = { value, ms: Math.min(best.ms, (used.user + used.system) / 1000) };
  }
  console.log(`  ${label.padEnd(22)} ${Math.round(best.ms).toString().padStart(7)} ms CPU`);
  return best;
}

const runs = Number(values.runs);
const text = values.file ? readFileSync(values.file, "utf8") : longTranscript(Math.ceil(Number(values.events) / 5), Number(values.output));
console.log(`transcript: ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB${values.file ? ` (${values.file})` : " (made up)"}; best of ${runs} runs`);
const parsed = timed("parse (baseline)", () => parseClaudeTranscript(text));
const session = parsed.value;
console.log(`  ${session.events.length} events`);
const lines = timed("linesOf", () => linesOf(session));
const finders = { findExplicit, findCorrections, findResolvedFailures, findDecisions, findFacts };
const found = Object.entries(finders).reduce((ms, [name, find]) => ms + timed(name, () => find(session, lines.value)).ms, lines.ms);
const whole = timed("extractLessons", () => extractLessons(session));
console.log(`  ${whole.value.length} lessons`);
const ratio = (ms: number) => (ms / parsed.ms).toFixed(1);
console.log(`the finders on all ${session.events.length} events / parse = ${ratio(found)}; extractLessons (the last ${Math.min(MAX_LESSON_EVENTS, session.events.length)} events) / parse = ${ratio(whole.ms)}`);
console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
