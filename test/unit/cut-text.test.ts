import { describe, expect, it } from "vitest";
import { cut, oneLine } from "../../lib/text/cut";

describe("cut", () => {
  it("keeps a text that fits, and cuts a longer one to n code units with an ellipsis", () => {
    expect(cut("short", 5)).toBe("short");
    expect(cut("a longer line", 6)).toBe("a lon…");
    expect(cut("a longer line", 6).length).toBeLessThanOrEqual(6);
  });

  it("never leaves half of an emoji: the cut moves before it", () => {
    const text = "ship it 🚀🚀🚀 now";
    for (let n = 2; n < text.length; n++) {
      const out = cut(text, n);
      expect(out.length, `n = ${n}`).toBeLessThanOrEqual(n);
      expect(out.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""), `n = ${n}: ${JSON.stringify(out)}`).not.toMatch(/[\ud800-\udfff]/);
    }
  });

  it("oneLine folds whitespace", () => {
    expect(oneLine("  a\n\tb  c ")).toBe("a b c");
  });
});
