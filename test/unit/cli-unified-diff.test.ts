import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unifiedDiff } from "@/cli/src/commands/unified-diff";

/** Applies a unified diff produced by unifiedDiff (a tiny patch, for checking it). */
function apply(oldText: string, diff: string): string {
  const old = oldText ? oldText.replace(/\n$/, "").split("\n") : [];
  const out: string[] = [];
  let at = 0;
  const lines = diff.replace(/\n$/, "").split("\n").slice(2);
  for (const line of lines) {
    const hunk = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(line);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      while (at < start) out.push(old[at++]!);
      continue;
    }
    if (line.startsWith("+")) out.push(line.slice(1));
    else if (line.startsWith("-")) at++;
    else {
      out.push(old[at++]!);
    }
  }
  while (at < old.length) out.push(old[at++]!);
  return out.length ? out.join("\n") + "\n" : "";
}

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a\n", "a\n", "a", "b")).toBe("");
  });

  it("prints a hunk with three lines of context", () => {
    const a = "1\n2\n3\n4\n5\n6\n7\n8\n";
    const b = "1\n2\n3\n4\nfive\n6\n7\n8\n";
    expect(unifiedDiff(a, b, "a/f", "b/f")).toBe("--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
  });

  it("applying the diff gives the new text (property)", () => {
    const text = fc.array(fc.constantFrom("a", "b", "c", "{", "}", ""), { maxLength: 30 }).map((l) => (l.length ? l.join("\n") + "\n" : ""));
    fc.assert(fc.property(text, text, (a, b) => apply(a, unifiedDiff(a, b, "a", "b") || "--- a\n+++ b\n") === b));
  });
});
