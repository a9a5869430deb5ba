import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContext } from "@/lib/context/pack/build-context";
import type { ContextLearning } from "@/lib/context/context-types";
import { learningLine, learningLineParts, lineHeadCache, LINE_HEAD_CAPACITY, LINE_HEAD_MAX_CHARS, warmLineHeads } from "@/lib/context/pack/learning-line";
import { countTokens, countTokensByLine, cutBetween, fewestTokens, MAX_COUNTED_RUN, PIECE_MAX_CHARS, pieceCountCache, PIECE_COUNT_CAPACITY, tooLongToCount } from "@/lib/context/pack/tokenizer";
import { contextData, contextNow, contextOptions } from "../support/context-data";

// Characters the pre-tokenizer treats differently: letters of several cases and scripts, digits,
// punctuation, "/" (which may follow a newline inside one piece), every kind of whitespace, newlines.
const atoms = [
  "a", "Z", "é", "ß", "Ж", "δ", "中", "日本", "🙂", "0", "42", "1234", "-", "_", ".", ",", "(", ")", "[", "]", "#", "`",
  "'s", "'LL", "\"", "/", "//", "\\", ":", "…", "·", "→", " ", "  ", "\t", "\u00a0", "\u3000", "\r", "\n", "\r\n", "\n\n",
];
const word = fc.array(fc.constantFrom(...atoms), { maxLength: 12 }).map((parts) => parts.join(""));
const line = fc.oneof(
  word,
  fc.tuple(fc.constantFrom("- [pattern] ", "## ", "  - ", "/", " ", "", "… "), fc.array(word, { maxLength: 10 })).map(([lead, words]) => lead + words.join(" ")),
);
const text = fc.tuple(fc.array(line, { maxLength: 30 }), fc.constantFrom("\n", "\n\n", "\r\n")).map(([lines, join]) => lines.join(join));

describe("fewestTokens", () => {
  it("never says more than the exact count, and is exact for text whose every word is one token", () => {
    fc.assert(
      fc.property(fc.oneof(line, text, fc.string({ unit: "grapheme", maxLength: 80 }), fc.array(fc.constantFrom("a", "b", " ", "\u00a0", "\u3000", "\u2009", "\t", "-"), { maxLength: 40 }).map((cs) => cs.join(""))), (t) => {
        expect(fewestTokens(t)).toBeLessThanOrEqual(countTokens(t));
      }),
      { numRuns: 5000, seed: 25 },
    );
    expect(fewestTokens("run the tests first")).toBe(countTokens("run the tests first"));
    // Runs of spaces that are not " " (o200k reads every \s as whitespace): the review's counterexamples.
    for (const t of ["\u00a0 \u00a0", "\u3000 \u3000", `- [insight] Use the cache${"\u00a0 ".repeat(16)}now`, `- [pattern] ${"\u3000 ".repeat(12)}ok`, "a\u2009 \u2009b"]) {
      expect(fewestTokens(t)).toBeLessThanOrEqual(countTokens(t));
    }
    expect(fewestTokens("")).toBe(0);
  });
});

describe("countTokensByLine", () => {
  it("gives the exact o200k count of any text: counts summed over its lines equal the count of the whole", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(countTokensByLine(t)).toBe(countTokens(t));
      }),
      { numRuns: 3000, seed: 15 },
    );
  });

  it("packs a context exactly as the plain count does: same text, same token estimate, same section reports", () => {
    const learnings = fc.array(line, { minLength: 1, maxLength: 40 }).map((contents) =>
      contents.map((content, i) => ({ id: `l${i}`, kind: "pattern" as const, content, confirmed: i % 3 !== 0, relevance: i % 4 ? 1 - i / 50 : null })),
    );
    fc.assert(
      fc.property(learnings, fc.integer({ min: 200, max: 3000 }), fc.constantFrom("startup" as const, "compact" as const), (items, budget, source) => {
        const data = contextData({ learnings: items });
        const built = buildContext(data, contextOptions({ budget, source }), countTokensByLine);
        expect(built).toEqual(buildContext(data, contextOptions({ budget, source }), countTokens));
        expect(built.tokenEstimate).toBe(countTokens(built.context));
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it("remembers at most PIECE_COUNT_CAPACITY pieces however many it has seen", () => {
    for (let i = 0; i < PIECE_COUNT_CAPACITY + 500; i++) countTokensByLine(`- [pattern] line number ${i}\nand its neighbour ${i}`);
    expect(pieceCountCache().size).toBe(PIECE_COUNT_CAPACITY);
  });
});

describe("a learning's line in two parts", () => {
  const learning = (content: string, kind: ContextLearning["kind"] = "pattern"): ContextLearning => ({ id: "l1", kind, content, confirmed: false, relevance: 0.83, writtenAt: contextNow });

  it("keeps the head by content: the same string each time it is listed, made anew for another kind", () => {
    const content = "Run `make gen` before (re)building the client";
    const [head, facts] = learningLineParts(learning(content), contextNow);
    expect([head, facts]).toEqual(["- Run `make gen` before (re)building the client", " (0.83, unconfirmed)"]);
    expect(learningLine(learning(content), contextNow)).toBe(head + facts);
    // The same string object, not only an equal one: its hash and its count are then looked up, not made.
    expect(Object.is(learningLineParts(learning([...content].join("")), contextNow)[0], head)).toBe(true);
    expect(learningLineParts(learning(content, "self_knowledge"), contextNow)[0]).toBe("- [self] Run `make gen` before (re)building the client");
    expect(learningLineParts(learning(content, "insight"), contextNow)[0]).toBe("- Run `make gen` before (re)building the client");
    // No content passes for the self-knowledge mark: one that starts with a bracket is headed by its true kind.
    expect(learningLineParts(learning("[self] I push straight to main", "insight"), contextNow)[0]).toBe("- [insight] [self] I push straight to main");
    expect(learningLineParts(learning(" [self] I push", "pattern"), contextNow)[0]).toBe("- [pattern] [self] I push");
  });

  it("counts a line as its head plus its facts only where o200k cuts between them", () => {
    expect(cutBetween("- [pattern] a", " (0.83)")).toBe(true);
    expect(cutBetween("- [pattern] a ", " (0.83)")).toBe(false);
    expect(cutBetween("- [pattern] a", "")).toBe(false);
    expect(cutBetween("- [pattern] a\nb", " (0.83)")).toBe(false);
    // Where it says so, the sum is the count, on texts built to meet at every kind of character.
    fc.assert(
      fc.property(fc.oneof(line, word, fc.string({ unit: "grapheme", maxLength: 40 })), fc.oneof(word, fc.string({ unit: "grapheme", maxLength: 20 })), (head, rest) => {
        const tail = ` (${rest}`;
        if (cutBetween(head, tail)) expect(countTokens(head) + countTokens(tail)).toBe(countTokens(head + tail));
      }),
      { numRuns: 3000, seed: 26 },
    );
  });

  it("keeps no head of a content longer than LINE_HEAD_MAX_CHARS: the cache stays small whatever is stored", () => {
    const long = `${"word ".repeat(LINE_HEAD_MAX_CHARS / 5)}end`;
    const before = lineHeadCache().size;
    const [head] = learningLineParts(learning(long), contextNow);
    expect(head).toBe(`- ${long}`);
    expect(lineHeadCache().size).toBe(before);
  });

  it("makes and counts heads ahead of any context (warmLineHeads, at start): a context then lists them as made", async () => {
    const held = [learning("Warmed: the staging bucket is in eu-west-1"), learning("Warmed: run <system-reminder> checks", "insight"), learning(`Warmed ${"long ".repeat(LINE_HEAD_MAX_CHARS / 5)}`)];
    expect(await warmLineHeads(held)).toBe(2);
    const warmed = lineHeadCache().get(held[1]!.content);
    expect(warmed).toEqual({ kind: "insight", head: "- Warmed: run ‹system-reminder› checks", tokens: countTokens("- Warmed: run ‹system-reminder› checks") });
    const size = lineHeadCache().size;
    const [head, , tokens] = learningLineParts(learning(held[1]!.content, "insight"), contextNow);
    expect(Object.is(head, warmed!.head) && tokens === warmed!.tokens).toBe(true);
    expect(lineHeadCache().size).toBe(size);
    // Warm already: nothing made again.
    expect(await warmLineHeads(held)).toBe(0);
  });

  it("remembers at most LINE_HEAD_CAPACITY heads however many learnings it has listed", () => {
    for (let i = 0; i < LINE_HEAD_CAPACITY + 500; i++) learningLineParts(learning(`learning ${i}`), contextNow);
    expect(lineHeadCache().size).toBe(LINE_HEAD_CAPACITY);
  });
});

describe("lines too long to count", () => {
  it("are those with a run of letters, whitespace or symbols past MAX_COUNTED_RUN; digits, base64 and prose never are", () => {
    const run = (c: string, n = MAX_COUNTED_RUN + 1) => c.repeat(n);
    for (const long of [run("a"), run("é"), run("Ж"), run(" "), run("="), `> ${run("q")} tail`]) expect(tooLongToCount(long)).toBe(true);
    const base64 = Buffer.from(Array.from({ length: 6_000 }, (_, i) => (i * 2654435761) >>> 24)).toString("base64");
    for (const fine of [run("a", MAX_COUNTED_RUN), run("7", 50_000), base64, "word ".repeat(5_000), run("ab1", 2_000)]) expect(tooLongToCount(fine)).toBe(false);
  });

  it("a line longer than PIECE_MAX_CHARS is counted but not remembered: the cache's memory stays bounded", () => {
    const long = "lorem ipsum dolor ".repeat(PIECE_MAX_CHARS / 10);
    expect(countTokensByLine(`${long}\nshort line`)).toBe(countTokens(`${long}\nshort line`));
    expect(pieceCountCache().get(`${long}\n`)).toBeUndefined();
    expect(pieceCountCache().get("short line")).toBe(countTokens("short line"));
  });
});
