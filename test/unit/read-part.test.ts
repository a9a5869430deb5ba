import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPart } from "@/cli/src/input/read-part";

const dir = mkdtempSync(path.join(tmpdir(), "baton-read-part-"));
const fileOf = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const read = (file: string, max: number, from: "start" | "end") => {
  const part = readPart(file, max, from);
  return part && { text: part.bytes.toString("utf8"), partial: part.partial };
};

describe("readPart: a bounded read from either end of a file", () => {
  const file = fileOf("abc.txt", "0123456789");

  it.each([
    [20, "start", "0123456789", false],
    [10, "start", "0123456789", false],
    [9, "start", "012345678", true],
    [3, "start", "012", true],
    [20, "end", "0123456789", false],
    [10, "end", "0123456789", false],
    [9, "end", "123456789", true],
    [3, "end", "789", true],
  ] as const)("max %i from the %s", (max, from, text, partial) => {
    expect(read(file, max, from)).toEqual({ text, partial });
  });

  it("an empty file is read as empty, whole", () => {
    expect(read(fileOf("empty.txt", ""), 5, "end")).toEqual({ text: "", partial: false });
  });

  it("a FIFO is not a file and is never opened (it would wait for a writer)", () => {
    const fifo = path.join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expect(readPart(fifo, 10, "start")).toBeNull();
    expect(readPart(fifo, 10, "end")).toBeNull();
  });

  it("a missing file throws what the file system says", () => {
    expect(() => readPart(path.join(dir, "nope"), 10, "start")).toThrow(/ENOENT/);
  });
});
