import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defuse, FORGEABLE_DELIMITERS, withoutHidden } from "@/lib/context/pack/fence";
import { nonSpaceRuns } from "@/lib/context/pack/tokenizer";

// Words that reach the scans' edge cases: the delimiters defusing swaps or splits (and the near misses
// it leaves alone), every kind of whitespace, line breaks, characters outside the BMP.
const atoms = [
  "run", "é", "🙂", "42", "(", "[", "[Warning:", "[Truncated", "<", ">", "</system-reminder>", "< tool >", "<div>", "#", "## Identity",
  "### Session state", "=", "==", "===", "-", "--", "---", "--- a.ts ---", "/", " ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\ufeff", "\n", "\r\n",
];
const text = fc.array(fc.constantFrom(...atoms), { maxLength: 30 }).map((parts) => parts.join(""));

describe("the scans a context's lines go through", () => {
  it("counts runs of non-whitespace as /\\S+/gu does, for every UTF-16 code unit", () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const t = `a${String.fromCharCode(code)}b`;
      if (nonSpaceRuns(t) !== t.match(/\S+/gu)!.length) differing.push(code);
    }
    expect(differing).toEqual([]);
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: "binary", maxLength: 60 })), (t) => {
        expect(nonSpaceRuns(t)).toBe(t.match(/\S+/gu)?.length ?? 0);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });

  it("defuses exactly as running every delimiter's pattern over every text would: each match holds its string", () => {
    const everyPattern = (t: string) => FORGEABLE_DELIMITERS.reduce((out, d) => out.replace(d.pattern, d.defuse), withoutHidden(t));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 80 })), (t) => {
        expect(defuse(t)).toBe(everyPattern(t));
        for (const d of FORGEABLE_DELIMITERS) for (const m of withoutHidden(t).matchAll(d.pattern)) expect(m[0]).toContain(d.holds);
      }),
      { numRuns: 3000, seed: 25 },
    );
  });
});
