import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTail } from "../../cli/src/agents/read-tail";
import { tempDir } from "../support/server";

const tmp = tempDir("baton-read-tail-");
afterAll(() => tmp.remove());

describe("readTail", () => {
  it("reads a file whole, or only its end past maxBytes", () => {
    const file = path.join(tmp.dir, "t.jsonl");
    writeFileSync(file, "0123456789");
    expect(readTail(file, 100, () => {})).toBe("0123456789");
    expect(readTail(file, 4, () => {})).toBe("6789");
  });

  it("gives null for what is not a regular file, without blocking on a FIFO (no writer would ever come)", () => {
    const fifo = path.join(tmp.dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    const dir = path.join(tmp.dir, "dir");
    mkdirSync(dir);
    const said: string[] = [];
    expect(readTail(fifo, 100, (m) => said.push(m))).toBeNull();
    expect(readTail(dir, 100, (m) => said.push(m))).toBeNull();
    expect(said).toEqual([`the transcript ${fifo} is not a regular file`, `the transcript ${dir} is not a regular file`]);
    const missing: string[] = [];
    expect(readTail(path.join(tmp.dir, "gone"), 100, (m) => missing.push(m))).toBeNull();
    expect(missing).toEqual([]);
  });
});
