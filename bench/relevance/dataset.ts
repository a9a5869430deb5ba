import { readFileSync } from "node:fs";
import path from "node:path";
import { isLearningKind, KIND_INFO, LEARNING_KINDS, type LearningKind } from "../../lib/rules";
import { ROOT } from "../../test/support/server";

export type Learning = {
  key: string;
  project: string | null;
  kind: LearningKind;
  content: string;
  tags: string[];
  confirmed: boolean;
  createdAt: string;
};
/** What every scenario has: its project and the learnings that truly matter for it. */
type Labelled = { name: string; project: string; relevant: string[]; paraphrase?: boolean };
/** A development-set scenario: the hints as the CLI sent them when the set was written (q holds the task title). */
export type Scenario = Labelled & { branch: string; task: string | null; q: string };
/**
 * A held-out scenario: a real-looking session. `subjects` are the newest commit subjects (newest
 * first), `taskTitle` the first line of the task's memory; `prompt` the user's first prompt
 * (`stage: "prompt"` only).
 */
export type HeldoutScenario = Labelled & {
  stage: "start" | "prompt";
  cwd: string;
  remote: string;
  branch: string;
  task: string | null;
  taskTitle: string | null;
  subjects: string[];
  prompt?: string;
};
export type Data<S extends Labelled> = { projects: { slug: string; name: string }[]; learnings: Learning[]; scenarios: S[] };
export type Dataset = Data<Scenario>;
export type HeldoutDataset = Data<HeldoutScenario>;

const DEVELOPMENT = path.join(ROOT, "bench/relevance/dataset.json");
const HELDOUT = path.join(ROOT, "bench/relevance/heldout.json");
/** The data sets spell each kind as people read it, its badge ("self-knowledge"), or as the API does. */
const KIND_OF_BADGE = new Map<string, LearningKind>(LEARNING_KINDS.map((kind) => [KIND_INFO[kind].badge, kind]));

function load<S extends Labelled>(file: string): Data<S> {
  return validate(JSON.parse(readFileSync(file, "utf8")) as Data<S>);
}

/** Checks a data set (unique keys, known kinds, labels in the scenario's scope) and maps each kind's badge to the API's kind. */
export function validate<S extends Labelled>(data: Data<S>): Data<S> {
  const keys = new Set<string>();
  for (const l of data.learnings) {
    if (keys.has(l.key)) throw new Error(`duplicate learning key ${l.key}`);
    keys.add(l.key);
    const kind = KIND_OF_BADGE.get(l.kind) ?? (isLearningKind(l.kind) ? l.kind : undefined);
    if (!kind) throw new Error(`learning ${l.key} has an unknown kind ${l.kind}`);
    l.kind = kind;
  }
  for (const s of data.scenarios) {
    for (const k of s.relevant) {
      const l = data.learnings.find((x) => x.key === k);
      if (!l) throw new Error(`scenario "${s.name}" names unknown learning ${k}`);
      if (l.project !== null && l.project !== s.project) throw new Error(`scenario "${s.name}": ${k} belongs to ${l.project}`);
    }
  }
  return data;
}

/** The development set: the one the ranking was built against. */
export const loadDataset = (): Dataset => load<Scenario>(DEVELOPMENT);

/** The held-out set: written before any tuning against it; a change is kept only if it agrees. */
export function loadHeldout(): HeldoutDataset {
  const data = load<HeldoutScenario>(HELDOUT);
  for (const s of data.scenarios) {
    if (s.stage === "prompt" && !s.prompt) throw new Error(`prompt scenario "${s.name}" has no prompt`);
  }
  return data;
}
