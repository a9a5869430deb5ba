import { readFileSync } from "node:fs";
import path from "node:path";
import { KIND_INFO, LEARNING_KINDS, type LearningKind } from "../../lib/rules";
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
export type Scenario = {
  name: string;
  project: string;
  branch: string;
  task: string | null;
  q: string;
  relevant: string[];
  paraphrase?: boolean;
};
export type Dataset = { projects: { slug: string; name: string }[]; learnings: Learning[]; scenarios: Scenario[] };

const DATASET = path.join(ROOT, "bench/relevance/dataset.json");
/** The data set spells each kind as people read it, its badge ("self-knowledge"); the API takes the kind. */
const KIND_OF_BADGE = new Map<string, LearningKind>(LEARNING_KINDS.map((kind) => [KIND_INFO[kind].badge, kind]));

export function loadDataset(): Dataset {
  const data = JSON.parse(readFileSync(DATASET, "utf8")) as Dataset;
  const keys = new Set<string>();
  for (const l of data.learnings) {
    if (keys.has(l.key)) throw new Error(`duplicate learning key ${l.key}`);
    keys.add(l.key);
    const kind = KIND_OF_BADGE.get(l.kind);
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
