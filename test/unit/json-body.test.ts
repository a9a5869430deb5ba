import { describe, expect, it } from "vitest";
import { parseJsonBody, wellFormed } from "@/lib/api/json-body";

describe("parseJsonBody", () => {
  it("reads lone surrogates as U+FFFD, in values and keys, at any depth; whole pairs stay", () => {
    const text = JSON.stringify({ a: "x\ud83d", list: ["\udc00y", { "k\ud800": "🚀" }], ok: "🚀 fine" });
    const read = parseJsonBody(text);
    expect(read).toEqual({ value: { a: "x\ufffd", list: ["\ufffdy", { "k\ufffd": "🚀" }], ok: "🚀 fine" }, hasNul: false, repaired: true });
  });

  it("leaves well-formed text alone and says so", () => {
    const value = { a: "plain", b: ["🚀", "日本語"], n: 1, t: true, z: null };
    expect(parseJsonBody(JSON.stringify(value))).toEqual({ value, hasNul: false, repaired: false });
  });

  it("finds NUL in a value or a key", () => {
    expect(parseJsonBody(JSON.stringify({ a: "x\u0000" })).hasNul).toBe(true);
    expect(parseJsonBody(JSON.stringify({ "k\u0000": 1 })).hasNul).toBe(true);
  });

  it("throws a SyntaxError on text that is not JSON", () => {
    expect(() => parseJsonBody("{nope")).toThrow(SyntaxError);
  });

  it("wellFormed replaces a high half at the end, a low half at the start, and two highs in a row", () => {
    expect(wellFormed("\ud83d")).toBe("\ufffd");
    expect(wellFormed("\ude80x")).toBe("\ufffdx");
    expect(wellFormed("\ud83d\ud83d\ude80")).toBe("\ufffd🚀");
  });
});
