// Prints one closing line over every runner: "Tests: N passed, N failed, N skipped".
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestFile, playwrightFile] = process.argv.slice(2);

if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, "utf8"));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  // A file that failed to load has no tests to count; count it once so it cannot pass silently.
  failed += (v.testResults ?? []).filter((f) => f.status === "failed" && !(f.assertionResults ?? []).length).length;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} else {
  console.error("no vitest results found");
  failed += 1;
}

if (playwrightFile && existsSync(playwrightFile)) {
  const p = JSON.parse(readFileSync(playwrightFile, "utf8"));
  passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
  failed += p.stats?.unexpected ?? 0;
  skipped += p.stats?.skipped ?? 0;
} else {
  console.error("no Playwright results found");
  failed += 1;
}

console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
