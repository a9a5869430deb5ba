import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ftsTokens } from "@/lib/context/search/fts-tokens";
import { FOLD_RUNS, KIND_CHANGES } from "@/lib/context/search/fts-unicode-data";
import { openFts5Terms, type Fts5Terms } from "../support/fts5-terms";
import { codePointTexts, porterTexts, randomTexts, repositoryTexts } from "../support/fts-texts";

// The TypeScript copy of FTS5's `porter unicode61` tokenizer against the real thing: a libSQL file
// database with an FTS5 table tokenized as learnings_fts is, its terms read back in order through
// fts5vocab. Every text must give the very same terms, or a ranking built on them would drift from bm25().

let fts: Fts5Terms;
beforeAll(async () => {
  fts = await openFts5Terms("porter unicode61");
});
afterAll(() => fts.close());

/** Texts whose terms differ between FTS5 and ftsTokens (the first few, to read), and how many terms were compared. */
async function compare(texts: readonly string[], perBatch = 500): Promise<{ differences: string[]; texts: number; terms: number }> {
  const differences: string[] = [];
  let terms = 0;
  for (let i = 0; i < texts.length; i += perBatch) {
    const batch = texts.slice(i, i + perBatch);
    const stored = await fts.termsOf(batch);
    batch.forEach((text, k) => {
      const expected = stored[k]!;
      const actual = ftsTokens(text);
      terms += expected.length;
      const at = expected.findIndex((term, j) => actual[j] !== term);
      if ((at >= 0 || actual.length !== expected.length) && differences.length < 5) {
        const j = at >= 0 ? at : Math.min(actual.length, expected.length);
        differences.push(`${JSON.stringify(text.slice(0, 200))}: term ${j} is ${JSON.stringify(actual[j])}, FTS5 stores ${JSON.stringify(expected[j])}`);
      }
    });
  }
  console.log(`fts-tokens: ${texts.length} texts, ${terms} terms compared`);
  return { differences, texts: texts.length, terms };
}

describe("ftsTokens gives the terms FTS5 porter unicode61 stores", () => {
  it("for every learning, prompt and tag in the repository's data and the benchmark's words", async () => {
    const result = await compare(repositoryTexts());
    expect(result.differences).toEqual([]);
    expect(result.texts).toBeGreaterThan(5000);
    expect(result.terms).toBeGreaterThan(100_000);
  });

  it("for generated mixes of code, paths, scripts, accents (composed and not), emoji and long tokens", async () => {
    const result = await compare(randomTexts(4000, 25));
    expect(result.differences).toEqual([]);
    expect(result.terms).toBeGreaterThan(100_000);
  });

  it("for words that walk every Porter step and condition", async () => {
    const result = await compare(porterTexts(), 10);
    expect(result.differences).toEqual([]);
    expect(result.terms).toBeGreaterThan(100_000);
  });

  it("for every character of the Basic Multilingual Plane and a sample past it", async () => {
    // Past the BMP: both sides of every change of kind, and every character a fold run covers.
    const astral: number[] = [];
    for (let i = 0; i < KIND_CHANGES.length; i += 2) astral.push(KIND_CHANGES[i]! - 1, KIND_CHANGES[i]!);
    for (let i = 0; i < FOLD_RUNS.length; i += 4) {
      for (let k = 0; k < FOLD_RUNS[i + 1]!; k++) astral.push(FOLD_RUNS[i]! + k * (FOLD_RUNS[i + 2]! >> 1));
    }
    const result = await compare(codePointTexts(astral), 4);
    expect(result.differences).toEqual([]);
    expect(result.terms).toBeGreaterThan(200_000);
  }, 120_000);

  it("for tokens at the stemmer's and the term store's byte limits", async () => {
    const texts = [
      "ab", "abs", "running", `${"x".repeat(61)}ing`, `${"x".repeat(62)}ing`, `${"é".repeat(30)}ing`, `${"é".repeat(31)}ing`,
      `${"ж".repeat(31)}s`, `${"ж".repeat(32)}s`, "x".repeat(40_000), `${"x".repeat(32_767)}é`, `${"é".repeat(20_000)}z`,
      "ba₂ed", "a₂₂ed", "\u0301\u0301a\u0301b\u0301",
    ];
    const result = await compare(texts);
    expect(result.differences).toEqual([]);
    expect(result.terms).toBe(texts.length);
  });
});

describe("ftsTokens, read as a specification", () => {
  it.each([
    ["Running the migrations", ["run", "the", "migrat"]],
    ["snake_case camelCase kebab-case path/to/file.ts", ["snake", "case", "camelcas", "kebab", "case", "path", "to", "file", "ts"]],
    ["CAFÉ Cafe\u0301 naïveté", ["cafe", "cafe", "naivet"]],
    ["Straße ﬁle ＡＢＣ İstanbul ǖber", ["straß", "ﬁle", "ａｂｃ", "istanbul", "ǖber"]],
    ["😀 🙂x 👍🏻 日本語", ["🙂x", "🏻", "日本語"]],
    ["ba₂ed", ["ba\uDCE2\uDC82"]],
  ])("%j → %j", (text, terms) => {
    expect(ftsTokens(text)).toEqual(terms);
  });
});
