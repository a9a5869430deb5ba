import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { parseJsonBody, storableInput, wellFormed } from "@/lib/api/json-body";

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

describe("storableInput (a server action's input)", () => {
  it("repairs lone surrogates in what a page's script sends, and hands back anything else as it came", () => {
    expect(storableInput([{ id: "p1", content: "Deploy 🚀".slice(0, -1) }])).toEqual([{ id: "p1", content: "Deploy \ufffd" }]);
    const plain = { id: "p1", at: new Date(0), n: 1n };
    expect(storableInput(plain)).toBe(plain);
    const dated = { at: new Date(0), note: "fine" };
    expect(storableInput(dated)).toBe(dated);
    expect(storableInput(undefined)).toBeUndefined();
    // Nested deeper than a reviver walks: handed back for the schema to refuse, not thrown.
    let deep: unknown = "x";
    for (let i = 0; i < 3_000; i++) deep = [deep];
    expect(storableInput(deep)).toBe(deep);
  });

  it("refuses NUL in a form's field or a script's object, with the API's error", () => {
    expect(() => storableInput({ content: "a\u0000b" })).toThrow(ApiError);
    expect(() => storableInput({ content: "a\u0000b" })).toThrow(/NUL/);
  });
});
