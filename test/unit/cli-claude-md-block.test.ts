import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockTask, removeTaskBlock, taskBlock, upsertTaskBlock } from "@/cli/src/commands/claude-md-block";

describe("the CLAUDE.md task block", () => {
  it.each([
    { name: "empty", text: "" },
    { name: "LF", text: "# A\n\nb\n" },
    { name: "CRLF", text: "# A\r\n\r\nb\r\n" },
    { name: "no final newline", text: "# A\nb" },
    { name: "only newlines", text: "\n\n" },
    { name: "unicode and trailing spaces", text: "Grüezi  \n→ ok \t\n" },
  ])("$name: add then remove gives the same bytes; adding twice is adding once", ({ text }) => {
    const once = upsertTaskBlock(text, "task-1");
    expect(upsertTaskBlock(once, "task-1")).toBe(once);
    expect(once.startsWith(text)).toBe(true);
    expect(blockTask(once)).toBe("task-1");
    expect(removeTaskBlock(once)).toBe(text);
  });

  it("switching tasks rewrites the block in place", () => {
    const text = `top\n${taskBlock("task-1")}\nbottom\n`;
    expect(upsertTaskBlock(text, "task-2")).toBe(`top\n${taskBlock("task-2")}\nbottom\n`);
  });

  it("holds for any text without a block (property)", () => {
    const line = fc.stringMatching(/^[^\r\n<]{0,20}$/);
    const doc = fc.tuple(fc.array(line, { maxLength: 8 }), fc.constantFrom("\n", "\r\n"), fc.boolean()).map(([lines, eol, final]) => lines.join(eol) + (final && lines.length ? eol : ""));
    fc.assert(
      fc.property(doc, (text) => {
        const once = upsertTaskBlock(text, "t-9");
        return upsertTaskBlock(once, "t-9") === once && removeTaskBlock(once) === text && once.startsWith(text);
      }),
    );
  });
});
