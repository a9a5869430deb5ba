import { api, expectStatus } from "../relevance/context-client";
import { randomGenerator } from "../random";
import { zipfWord } from "../zipf-words";

// Commit subjects as developers write them, filled with words drawn as the learnings' are (Zipf's law
// over the same vocabulary, bench/zipf-words.ts): mostly rarer words, which the context searches for.
const SUBJECTS = [
  "Fix {a} {b} when {c} times out",
  "Add {a} {b} to the {c} handler",
  "Update {a} tests for {b} {c}",
  "Remove unused {a} {b}",
  "Refactor {a} {b} into its own {c} module",
  "Handle {a} errors in {b} {c}",
  "Bump {a} and {b} versions",
  "Retry {a} {b} after a {c} failure",
  "Document the {a} {b} setup",
  "Speed up {a} {b} for large {c}",
  "fix({a}): {b} {c} off by one",
  "feat({a}): {b} {c} behind a flag",
  "chore: move {a} {b} config to {c}",
  "Revert \"Use {a} for {b} {c}\"",
  "Log {a} {b} with {c} ids",
  "Guard {a} against empty {b} {c}",
];
const BRANCHES = ["main", "feat/{a}-{b}", "fix/{a}-{b}", "chore/{a}", "{a}-{b}-{c}"];

/**
 * The hook's query for a made-up session: its own id, branch, directory and three commit subjects.
 * No two sessions of one generator send the same hints (a repeat is drawn again).
 */
export function hookQueries(seed: number): () => string {
  const rand = randomGenerator(seed);
  const word = () => zipfWord(rand);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const fill = (template: string) => template.replace(/\{[abc]\}/g, word);
  const sent = new Set<string>();
  let n = 0;
  return () => {
    let subjects: string[];
    do subjects = [fill(pick(SUBJECTS)), fill(pick(SUBJECTS)), fill(pick(SUBJECTS))];
    while (sent.has(subjects.join("\n")));
    sent.add(subjects.join("\n"));
    const params = new URLSearchParams({
      project: "web",
      format: "claude",
      mode: "full",
      source: "startup",
      sessionId: `${seed.toString(36)}-${(n++).toString(36)}-${Math.floor(rand() * 2 ** 32).toString(36)}`,
      cwd: rand() < 0.7 ? "/home/dev/src/web" : `/home/dev/src/web/packages/${word()}`,
      branch: fill(pick(BRANCHES)),
      q: subjects.join(" · "),
    });
    return `/api/context?${params}`;
  };
}

/** The old benchmark's question, repeated: answered from the response cache after the first time. */
export const REPEATED_QUERY =
  "/api/context?project=web&budget=2000&branch=feat/token-refresh&cwd=/home/dev/src/web&q=" +
  encodeURIComponent("Fix token refresh race · Add migration for sessions table · Update webhook retry tests");

/**
 * Names only a few learnings hold (a service, a vendor, a flag), which a prompt about something
 * specific mentions: three learnings each, so every other prompt finds a few that truly match.
 */
const NAMES = "zephyr quokka nimbus sprocket marlin tundra juniper osprey basalt cobalt fennel garnet halcyon ibex jasper kestrel".split(" ");

/** Stores learnings about those names (three each, in project "web"), to do before asking promptQueries' prompts. */
export async function storeNamedLearnings(base: string, token: string, seed: number): Promise<void> {
  const rand = randomGenerator(seed);
  const word = () => zipfWord(rand);
  const post = api(base, token);
  for (const name of NAMES.flatMap((n) => [n, n, n])) {
    const content = `The ${name} ${word()} needs its ${word()} set before the ${word()} ${word()} runs.`;
    expectStatus(await post("POST", "/api/learnings", { kind: "insight", content, project: "web", confirmed: true }), 201, "storing a named learning");
  }
}

/**
 * The prompt-stage question as the prompt hook asks it (a follow-up prompt's words within a session,
 * the session's directory, format=claude), if the server has that route. Every other prompt names
 * one of the names storeNamedLearnings stores learnings about.
 */
export function promptQueries(seed: number): () => string {
  const rand = randomGenerator(seed);
  const word = () => zipfWord(rand);
  let n = 0;
  return () => {
    const subject = n % 2 ? `${word()} ${word()}` : `${NAMES[Math.floor(rand() * NAMES.length)]!} ${word()}`;
    const q = `why does the ${subject} fail after the ${word()} change`;
    const params = new URLSearchParams({ format: "claude", sessionId: `prompt-${seed}-${n++ % 50}`, q, cwd: "/home/dev/src/web", budget: "400" });
    return `/api/context/prompt?${params}`;
  };
}
