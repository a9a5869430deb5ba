/**
 * The lesson extractor on the labelled sessions: recall per kind of lesson and false proposals per
 * 10 sessions, on the tuning half (tuned on) and the held-out half (frozen before tuning, never tuned on).
 *
 *   npx tsx bench/lessons.ts [--verbose] [--held-out]
 *
 * --verbose prints the tuning half's misses and false proposals; the held-out half is scored only with
 * --held-out, once tuning is over (its misses are never printed: reading them would be tuning on them).
 *
 * No server: the extractor is pure. Data: test/fixtures/lessons/{tune,held-out}/*.json. Targets on the
 * held-out half: recall ≥ 0.7 overall and ≥ 0.5 for each kind, at most one false proposal per 10 sessions.
 */
import { loadHalf, recallOf, score } from "./lessons/measure";

const verbose = process.argv.includes("--verbose");
const halves = process.argv.includes("--held-out") ? (["tune", "held-out"] as const) : (["tune"] as const);
for (const half of halves) {
  const scored = score(loadHalf(half));
  const perKind = Object.entries(scored.found)
    .sort()
    .map(([kind, t]) => `${kind} ${t.found}/${t.total}`)
    .join(", ");
  const falsePer10 = (scored.falses.length / scored.sessions) * 10;
  console.log(`${half}: ${scored.sessions} sessions, ${scored.proposals} proposals; recall ${recallOf(scored).toFixed(2)} (${perKind}); false proposals ${scored.falses.length} (${falsePer10.toFixed(1)} per 10 sessions)`);
  if (verbose && half === "tune") {
    for (const m of scored.missed) console.log(`  missed ${m.kind} [${m.session}]: ${m.lesson}`);
    for (const f of scored.falses) console.log(`  false ${f.lesson} [${f.session}]: ${f.content}${f.mustNot ? `  (must not: ${f.mustNot})` : ""}`);
  }
}
