import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../test/support/server";
import { validate, type HeldoutDataset, type HeldoutScenario, type Learning } from "./dataset";

/**
 * The second held-out set (issue 26): six projects none of the earlier sets has, written in two parts
 * by two people who never read Baton's code. Part A (heldout2-learnings.json) the learnings and 60
 * tasks as tickets, each with the learnings that matter, and 20 "noise" items the learnings do not
 * cover; part B (heldout2-prompts.json) the first prompt of each, written from the ticket alone by
 * someone who never saw the learnings. Every task is a session: it starts with the hints its branch
 * and commits give, then the user types the prompt. Never tuned on: report only. The third held-out set
 * (heldout3-*.json: five more projects, 40 tasks, 15 noise items) is written and read the same way.
 */
type Task = { id: string; project: string; taskId: string | null; description: string; branch: string; subjects: string[]; relevant: string[] };
type PartA = { description: string; projects: { slug: string; name: string }[]; learnings: Learning[]; tasks: Task[]; noise: Task[] };
type PartB = { prompts: { task: string; prompt: string }[]; noise: { task: string; prompt: string }[] };

export type Heldout2 = {
  /** The 60 tasks as prompt-stage scenarios. */
  data: HeldoutDataset;
  /** The 20 prompts about something the learnings do not cover (relevant: none). */
  noise: HeldoutScenario[];
};

/** The held-out sets of this shape: 2 (written 2026-11-26) and 3 (2026-11-28, five more projects, the same two-part way). */
export type PromptSetNumber = 2 | 3;
const partA = (n: PromptSetNumber) => path.join(ROOT, `bench/relevance/heldout${n}-learnings.json`);
const partB = (n: PromptSetNumber) => path.join(ROOT, `bench/relevance/heldout${n}-prompts.json`);

/** Part A lists its paraphrase tasks in its description ("Paraphrase tasks (…): T1, T3, …."). */
function paraphraseIds(description: string): Set<string> {
  const list = /Paraphrase tasks[^:]*:\s*([^.]*)\./.exec(description)?.[1] ?? "";
  return new Set(list.split(/,\s*/).filter(Boolean));
}

function scenario(t: Task, prompt: string, paraphrase: boolean): HeldoutScenario {
  return {
    name: `${t.project} · ${t.id}${t.taskId ? ` ${t.taskId}` : ""}`,
    project: t.project,
    relevant: t.relevant,
    paraphrase,
    stage: "prompt",
    cwd: `/home/dev/code/${t.project}`,
    remote: `git@github.com:team/${t.project}.git`,
    branch: t.branch,
    task: t.taskId,
    taskTitle: null,
    subjects: t.subjects,
    prompt,
  };
}

export function loadHeldout2(n: PromptSetNumber = 2): Heldout2 {
  const a = JSON.parse(readFileSync(partA(n), "utf8")) as PartA;
  const b = JSON.parse(readFileSync(partB(n), "utf8")) as PartB;
  const promptOf = new Map([...b.prompts, ...b.noise].map((p) => [p.task, p.prompt]));
  const paraphrase = paraphraseIds(a.description);
  const of = (t: Task) => {
    const prompt = promptOf.get(t.id);
    if (!prompt) throw new Error(`no prompt for ${t.id}`);
    return scenario(t, prompt, paraphrase.has(t.id));
  };
  // Part A names each project with its whole stack ("Tradepost — second-hand marketplace (Rails 7.1, …)"):
  // a project's name is at most 100 characters, so the name before the stack is kept.
  const projects = a.projects.map((p) => ({ slug: p.slug, name: p.name.split(/ — | \(/)[0]!.slice(0, 100) }));
  const data = validate({ projects, learnings: a.learnings, scenarios: a.tasks.map(of) });
  return { data, noise: a.noise.map(of) };
}

const STOP = new Set(
  "the and for with that this from into when then than what have has was were are not but you your our their its can should would could will just also only some any all get got use uses used using make made does did done there here after before about over under more most very still again".split(
    " ",
  ),
);
/** A crude stem: lower case, common endings off, so "uploads" and "uploading" meet. */
export function stems(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z][a-z0-9]{2,}/g) ?? [];
  return new Set(words.filter((w) => !STOP.has(w)).map((w) => w.replace(/(ing|ed|es|s|ly)$/, "")).filter((w) => w.length >= 3));
}

/** The share of labelled (prompt, learning) pairs whose texts share at least one word stem. */
export function sharedStemShare(data: HeldoutDataset): { pairs: number; sharing: number } {
  const byKey = new Map(data.learnings.map((l) => [l.key, l]));
  let pairs = 0;
  let sharing = 0;
  for (const s of data.scenarios) {
    const said = stems(s.prompt ?? "");
    for (const key of s.relevant) {
      pairs++;
      const l = byKey.get(key)!;
      if ([...stems(`${l.content} ${l.tags.join(" ")}`)].some((w) => said.has(w))) sharing++;
    }
  }
  return { pairs, sharing };
}
