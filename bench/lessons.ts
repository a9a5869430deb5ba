/**
 * The lesson extractor on the labelled sessions: recall per kind of lesson and false proposals per
 * 10 sessions, on the tuning half (tuned on) and the held-out half (frozen before tuning, never tuned on).
 *
 *   npx tsx bench/lessons.ts [--verbose] [--held-out] [--unseen] [--calibrate [--sweep]] [--only 25-36]
 *
 * --verbose prints the tuning half's misses and false proposals; the held-out half is scored only with
 * --held-out, once tuning is over (its misses are never printed: reading them would be tuning on them);
 * --unseen scores the second report set (test/fixtures/lessons/unseen/) the same way; --calibrate the
 * calibration set (test/fixtures/lessons/calibrate/), where --sweep prints what other global limits
 * (backing needed, proposals per kind and per session) would give: a precision–recall curve, never a
 * rule for a session.
 * --only scores the tuning sessions whose number is in the given ranges ("25-36", "1-24,30"): sessions
 * added since the last tuning are an unseen set until a rule is changed for them.
 *
 * No server: the extractor is pure. Data: test/fixtures/lessons/{tune,held-out,unseen}/*.json. Targets on the
 * held-out half: recall ≥ 0.7 overall and ≥ 0.5 for each kind, at most one false proposal per 10 sessions.
 */
import { extractLessons, LIMITS, type ExtractLimits } from "../cli/src/lessons/extract-lessons";
import { inRanges, loadHalf, recallOf, score, type Half, type LabelledSession } from "./lessons/measure";

const verbose = process.argv.includes("--verbose");
const only = process.argv[process.argv.indexOf("--only") + 1];
const ranges = process.argv.includes("--only") ? only : undefined;
const halves: Half[] = ["tune", ...(["held-out", "unseen", "calibrate"] as const).filter((h) => process.argv.includes(`--${h}`))];
for (const half of halves) {
  // A report set is always scored whole: a subset of it is still the report set.
  const sessions = loadHalf(half).filter((s) => half !== "tune" || !ranges || inRanges(s.id, ranges));
  const scored = score(sessions);
  const perKind = Object.entries(scored.found)
    .sort()
    .map(([kind, t]) => `${kind} ${t.found}/${t.total}`)
    .join(", ");
  const falsePer10 = (scored.falses.length / scored.sessions) * 10;
  const label = half === "tune" && ranges ? `tune ${ranges}` : half;
  console.log(`${label}: ${scored.sessions} sessions, ${scored.proposals} proposals; recall ${recallOf(scored).toFixed(2)} (${perKind}); false proposals ${scored.falses.length} (${falsePer10.toFixed(1)} per 10 sessions)`);
  if (verbose && half === "tune") {
    for (const m of scored.missed) console.log(`  missed ${m.kind} [${m.session}]: ${m.lesson}`);
    for (const f of scored.falses) console.log(`  false ${f.lesson} [${f.session}]: ${f.content}${f.mustNot ? `  (must not: ${f.mustNot})` : ""}`);
  }
}

/** Every combination of the global limits around the product's, on the calibration set, fewest false proposals first. */
function sweep(sessions: LabelledSession[]): void {
  const rows: { limits: ExtractLimits; recall: number; falses: number; proposals: number }[] = [];
  for (const minSignals of [1, 2, 3, 4]) {
    for (const perKind of [1, 2, 3]) {
      for (const perSession of [2, 3, 5]) {
        const limits = { minSignals, perKind, perSession };
        const scored = score(sessions, (s) => extractLessons(s, limits));
        rows.push({ limits, recall: recallOf(scored), falses: scored.falses.length, proposals: scored.proposals });
      }
    }
  }
  rows.sort((a, b) => a.falses - b.falses || b.recall - a.recall);
  const mark = (l: ExtractLimits) => (l.minSignals === LIMITS.minSignals && l.perKind === LIMITS.perKind && l.perSession === LIMITS.perSession ? "  (the product's)" : "");
  console.log("calibrate sweep: backing needed / per kind / per session → recall, false proposals, proposals");
  for (const r of rows) console.log(`  ${r.limits.minSignals} / ${r.limits.perKind} / ${r.limits.perSession} → ${r.recall.toFixed(2)}, ${r.falses}, ${r.proposals}${mark(r.limits)}`);
}

if (process.argv.includes("--sweep")) sweep(loadHalf("calibrate"));
