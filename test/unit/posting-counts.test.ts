import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_PACKED_LENGTH, packed, unpacked } from "@/lib/context/search/learning-index";
import { MAX_CONTENT_CHARS, MAX_TAG_CHARS, MAX_TAGS } from "@/lib/rules";

describe("a posting's counts packed in one number", () => {
  it("unpack to the counts and length packed, up to their bounds", () => {
    const count = fc.integer({ min: 0, max: 65_535 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_PACKED_LENGTH }), count, count, (length, content, tags) => {
        expect(unpacked(packed(length, content, tags))).toEqual({ content, tags, length });
      }),
    );
    expect(unpacked(packed(MAX_PACKED_LENGTH, 65_535, 65_535))).toEqual({ content: 65_535, tags: 65_535, length: MAX_PACKED_LENGTH });
  });

  it("hold any learning the API lets in (a token is a character at least), and a larger one at the bounds", () => {
    const longest = MAX_CONTENT_CHARS + MAX_TAGS * MAX_TAG_CHARS;
    expect(longest).toBeLessThan(2 ** 16);
    expect(unpacked(packed(longest, MAX_CONTENT_CHARS, MAX_TAGS * MAX_TAG_CHARS))).toEqual({ content: MAX_CONTENT_CHARS, tags: MAX_TAGS * MAX_TAG_CHARS, length: longest });
    expect(unpacked(packed(2 ** 40, 2 ** 20, 2 ** 17))).toEqual({ content: 65_535, tags: 65_535, length: MAX_PACKED_LENGTH });
  });
});
