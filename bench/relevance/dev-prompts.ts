import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../test/support/server";
import { loadDataset, type HeldoutScenario, type Scenario } from "./dataset";
import type { Heldout2 } from "./heldout2";

/**
 * The development set's sessions with a first prompt (issue 26), to tune the prompt stage on:
 * dev-prompts.json holds one first prompt per development scenario (by name) and 16 noise sessions
 * (a project, branch, commits and a prompt these projects' learnings do not cover), written by someone
 * who never saw the learnings. The start sends the scenario's hints as the development set writes them
 * (its q, whole, as the commit subjects), then the prompt in the same session.
 */
type DevPrompts = {
  prompts: { scenario: string; prompt: string }[];
  noise: { id: string; project: string; branch: string; commits: string[]; prompt: string }[];
};

const FILE = path.join(ROOT, "bench/relevance/dev-prompts.json");

function session(s: Pick<Scenario, "name" | "project" | "relevant" | "paraphrase" | "branch" | "task">, subjects: string, prompt: string): HeldoutScenario {
  return {
    ...s,
    stage: "prompt",
    cwd: `/home/dev/code/${s.project}`,
    remote: `git@github.com:team/${s.project}.git`,
    taskTitle: null,
    // One entry: the start request keeps the first three subjects, and the set's q is the whole hint.
    subjects: [subjects],
    prompt,
  };
}

export function loadDevPrompts(): Heldout2 {
  const data = loadDataset();
  const file = JSON.parse(readFileSync(FILE, "utf8")) as DevPrompts;
  const promptOf = new Map(file.prompts.map((p) => [p.scenario, p.prompt]));
  const scenarios = data.scenarios.map((s) => {
    const prompt = promptOf.get(s.name);
    if (!prompt) throw new Error(`no development prompt for "${s.name}"`);
    return session(s, s.q, prompt);
  });
  const noise = file.noise.map((n) =>
    session({ name: `${n.project} · noise ${n.id}`, project: n.project, relevant: [], paraphrase: false, branch: n.branch, task: null }, n.commits.join(" · "), n.prompt),
  );
  return { data: { projects: data.projects, learnings: data.learnings, scenarios }, noise };
}
