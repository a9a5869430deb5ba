import { describe, expect, it } from "vitest";
import { falsePositives, loadOrdinaryLines, loadSamples, recall } from "../../bench/secrets/measure";

// The redactor's quality on the frozen sets (issue 21), as bench/secrets.ts measures it: recall on the
// held-out half, which the rules were never tuned on, and false positives of the secret rules on
// 20,000 lines of ordinary transcript text (git SHAs, lockfile hashes, UUIDs, base64, code, logs).
describe("secret redaction quality", () => {
  it("finds at least 90% of the held-out secrets, and every development one", () => {
    const heldOut = recall(loadSamples("heldout"));
    expect(heldOut.total).toBeGreaterThanOrEqual(20);
    expect(heldOut.recall, heldOut.missed.map((m) => m.text).join("\n")).toBeGreaterThanOrEqual(0.9);
    const development = recall(loadSamples("development"));
    expect(development.missed.map((m) => m.text)).toEqual([]);
  });

  it("withholds at most one line of ordinary text", () => {
    const lines = loadOrdinaryLines();
    expect(lines.length).toBeGreaterThanOrEqual(10_000);
    const bySecretRules = falsePositives(lines).filter((fp) => fp.by === "secret rules");
    expect(bySecretRules.map((fp) => fp.redacted).slice(0, 5)).toEqual([]);
    expect(bySecretRules.length).toBeLessThanOrEqual(1);
  });

  it("leaves alone every ordinary line that names a secret without holding one", () => {
    const lines = loadOrdinaryLines("ordinary-near-secrets.txt");
    expect(lines.length).toBeGreaterThanOrEqual(15);
    expect(falsePositives(lines).map((fp) => fp.redacted)).toEqual([]);
  });
});
