import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packed, unpacked } from "@/lib/context/search/learning-index";
import { MAX_CONTENT_CHARS } from "@/lib/rules";

describe("a posting's counts packed in one number", () => {
  it("unpack to the counts and length packed, up to their bounds", () => {
    const count = fc.integer({ min: 0, max: 65_535 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 21 - 1 }), count, count, (length, content, tags) => {
        expect(unpacked(packed(length, content, tags))).toEqual({ content, tags, length });
      }),
    );
    expect(unpacked(packed(2 ** 21 - 1, 65_535, 65_535))).toEqual({ content: 65_535, tags: 65_535, length: 2 ** 21 - 1 });
  });

  it("hold any learning's length: a token is at least one character", () => {
    expect(MAX_CONTENT_CHARS * 2).toBeLessThan(2 ** 21);
  });
});
