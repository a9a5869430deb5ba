/**
 * Recall of the secret redactor on the development and held-out halves of the secret set (per family)
 * and its false positives and speed on 20,000 lines of ordinary transcript text.
 *
 *   npx tsx bench/secrets.ts [--verbose]   (--verbose prints every miss and every false positive)
 *
 * No server: the redactor is pure. Data: test/fixtures/secrets/{development,heldout}.json, ordinary.txt
 * (made by bench/secrets/make-ordinary.mjs) and ordinary-near-secrets.txt (written by hand). Targets:
 * held-out recall ≥ 0.9, at most one false positive in ordinary.txt, none in ordinary-near-secrets.txt.
 */
import { falsePositives, linesPerSecond, loadOrdinaryLines, loadSamples, recall } from "./secrets/measure";

const verbose = process.argv.includes("--verbose");
for (const half of ["development", "heldout"] as const) {
  const r = recall(loadSamples(half));
  console.log(`${half}: recall ${r.recall.toFixed(3)} (${r.found}/${r.total})  ${Object.entries(r.byFamily).map(([f, n]) => `${f} ${n}`).join(", ")}`);
  if (verbose) for (const m of r.missed) console.log(`  missed ${m.family}: ${m.text}`);
}
const lines = loadOrdinaryLines();
const fps = falsePositives(lines);
const bySecretRules = fps.filter((fp) => fp.by === "secret rules").length;
console.log(`ordinary text: ${fps.length} false positive lines in ${lines.length} (secret rules ${bySecretRules}, unclosed <private> ${fps.length - bySecretRules})`);
if (verbose) for (const fp of fps) console.log(`  ${fp.line}\n  → ${fp.redacted}`);
const near = loadOrdinaryLines("ordinary-near-secrets.txt");
const nearFps = falsePositives(near);
console.log(`ordinary lines that name a secret: ${nearFps.length} false positive lines in ${near.length}`);
if (verbose) for (const fp of nearFps) console.log(`  ${fp.line}\n  → ${fp.redacted}`);
console.log(`speed: ${linesPerSecond(lines).toLocaleString("en")} lines/s`);
