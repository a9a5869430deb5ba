/**
 * Measures the secret redactor on the frozen sets in test/fixtures/secrets: recall on the development
 * half (tuned on) and the held-out half (never tuned on), per family of credential, and the false
 * positives on ordinary transcript text. Shared by `bench/secrets.ts` and the quality test.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { SecretRedactor } from "../../lib/secrets/redact-secrets";

export type SecretSample = { family: string; secret: string; text: string };
export type Recall = { found: number; total: number; recall: number; byFamily: Record<string, string>; missed: SecretSample[] };

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/secrets");

export function loadSamples(half: "development" | "heldout"): SecretSample[] {
  return (JSON.parse(readFileSync(path.join(FIXTURES, `${half}.json`), "utf8")) as { samples: SecretSample[] }).samples;
}

/**
 * `ordinary.txt`: 20,430 lines of ordinary transcript text. `ordinary-near-secrets.txt`: lines a tester saw
 * withheld from a real handoff (a runbook's path, `JWT_EXPIRES_IN=15m`, `auth: "oauth2"`, a Stripe customer
 * id, a CI cache key, …) and a few beside them that the rules for those leaks must leave alone (htpasswd
 * without -b, a URL's plain user, base64 of a URL without a password), each naming a secret without holding one.
 */
export function loadOrdinaryLines(file: "ordinary.txt" | "ordinary-near-secrets.txt" = "ordinary.txt"): string[] {
  return readFileSync(path.join(FIXTURES, file), "utf8").split("\n").filter(Boolean);
}

/** A sample is found when its secret is not in the redacted text (a marker replacing more is fine). */
export function recall(samples: SecretSample[]): Recall {
  const families = new Map<string, { found: number; total: number }>();
  const missed: SecretSample[] = [];
  for (const sample of samples) {
    const found = !new SecretRedactor().text(sample.text).includes(sample.secret);
    const family = families.get(sample.family) ?? { found: 0, total: 0 };
    families.set(sample.family, { found: family.found + (found ? 1 : 0), total: family.total + 1 });
    if (!found) missed.push(sample);
  }
  const found = samples.length - missed.length;
  const byFamily = Object.fromEntries([...families].map(([name, f]) => [name, `${f.found}/${f.total}`]));
  return { found, total: samples.length, recall: found / samples.length, byFamily, missed };
}

export type FalsePositive = { line: string; redacted: string; by: "secret rules" | "private block" };

/**
 * Lines of ordinary text the redactor changed: each is a false positive. `by` tells the secret rules
 * from an unclosed `<private>` (which withholds to the end of its text by design, also where prose
 * only names the tag).
 */
export function falsePositives(lines: string[]): FalsePositive[] {
  const changed: FalsePositive[] = [];
  for (const line of lines) {
    const redactor = new SecretRedactor();
    const redacted = redactor.text(line);
    if (redacted !== line) changed.push({ line, redacted, by: redactor.counts.secrets ? "secret rules" : "private block" });
  }
  return changed;
}

/** Lines redacted a second, best of `rounds` passes over the lines (one redactor a line, as the hooks use it per text). */
export function linesPerSecond(lines: string[], rounds = 3): number {
  let best = Infinity;
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (const line of lines) new SecretRedactor().text(line);
    best = Math.min(best, performance.now() - start);
  }
  return Math.round((lines.length / best) * 1000);
}
