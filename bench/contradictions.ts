/**
 * Precision and recall of the contradiction detector on the labelled pairs.
 * `npx tsx bench/contradictions.ts` (tune.json and held-out.json); `--misses` lists tune.json's errors
 * (never held-out's: it stays unseen so its score means something).
 */
import { readFileSync } from "node:fs";
import { detectContradiction } from "../lib/learnings/contradictions";

type Pair = { a: string; b: string; contradictory: boolean; why: string };

export function score(file: string): { precision: number; recall: number; listed: number; truePositives: number; misses: Pair[] } {
  const { pairs } = JSON.parse(readFileSync(file, "utf8")) as { pairs: Pair[] };
  let tp = 0;
  let listed = 0;
  const misses: Pair[] = [];
  for (const p of pairs) {
    const hit = detectContradiction(p.a, p.b).contradictory;
    if (hit) listed++;
    if (hit && p.contradictory) tp++;
    if (hit !== p.contradictory) misses.push(p);
  }
  const positives = pairs.filter((p) => p.contradictory).length;
  return { precision: listed ? tp / listed : 0, recall: positives ? tp / positives : 0, listed, truePositives: tp, misses };
}

if (process.argv[1]?.endsWith("contradictions.ts")) {
  for (const name of process.argv.includes("--held-out") ? ["tune", "held-out"] : ["tune"]) {
    const r = score(`test/fixtures/contradictions/${name}.json`);
    console.log(`${name}: precision ${r.precision.toFixed(2)} recall ${r.recall.toFixed(2)} (listed ${r.listed}, true ${r.truePositives})`);
    if (name === "tune" && process.argv.includes("--misses")) {
      for (const m of r.misses) {
        const v = detectContradiction(m.a, m.b);
        console.log(`  ${m.contradictory ? "MISSED" : "FALSE "} ${v.score} [${v.reasons.join(",")}] ${m.a} || ${m.b}`);
      }
    }
  }
}
