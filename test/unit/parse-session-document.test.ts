import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { parseSessionDocument, type SessionFrontMatter } from "@/lib/sessions/parse-session-document";

// What a document without front matter gets: no id, medium priority (2), nothing else.
const defaults: SessionFrontMatter = { id: null, priority: 2, tags: [], branch: null, specs: [], files: [], createdAt: null, workingDirectory: null };

function failure(markdown: string): ApiError {
  try {
    parseSessionDocument(markdown);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the document to be refused");
}

describe("parseSessionDocument: what it reads", () => {
  it.each([
    { name: "no front matter", markdown: "# Just a title\n\nbody", fields: {} },
    { name: "an empty document", markdown: "", fields: {} },
    { name: "--- later in the body is not front matter", markdown: "intro\n---\nid: x\n---\n", fields: {} },
    { name: "an indented --- is not front matter", markdown: " ---\nid: x\n---\n", fields: {} },
    { name: "empty front matter", markdown: "---\n---\nbody", fields: {} },
    { name: "only a comment", markdown: "---\n# nothing yet\n---\n", fields: {} },
    {
      name: "every field",
      markdown: [
        "---",
        "id: task-368.s_1",
        "priority: critical",
        "tags: [auth, api]",
        "branch: feat/x",
        "specs: [docs/a.md]",
        "files:",
        "  - lib/a.ts",
        "  - lib/b.ts",
        "created_at: 2025-01-31T09:00:00Z",
        "working_directory: /srv/repo",
        "---",
        "body",
      ].join("\n"),
      fields: {
        id: "task-368.s_1",
        priority: 0,
        tags: ["auth", "api"],
        branch: "feat/x",
        specs: ["docs/a.md"],
        files: ["lib/a.ts", "lib/b.ts"],
        createdAt: new Date("2025-01-31T09:00:00Z"),
        workingDirectory: "/srv/repo",
      },
    },
    { name: "CRLF line ends", markdown: "---\r\nspecs:\r\n  - a.md\r\nbranch: main\r\n---\r\nbody\r\n", fields: { specs: ["a.md"], branch: "main" } },
    { name: "a BOM", markdown: "\uFEFF---\nid: bom\n---\n", fields: { id: "bom" } },
    { name: "closing line with trailing spaces", markdown: "---\nid: t\n---   \nbody", fields: { id: "t" } },
    { name: "front matter at the very end", markdown: "---\nid: end\n---", fields: { id: "end" } },
    { name: "priority high", markdown: "---\npriority: high\n---\n", fields: { priority: 1 } },
    { name: "priority medium", markdown: "---\npriority: medium\n---\n", fields: { priority: 2 } },
    { name: "priority LOW", markdown: "---\npriority: LOW\n---\n", fields: { priority: 3 } },
    { name: "priority integer", markdown: "---\npriority: 42\n---\n", fields: { priority: 42 } },
    { name: "priority negative", markdown: "---\npriority: -3\n---\n", fields: { priority: -3 } },
    { name: "priority quoted integer", markdown: "---\npriority: '5'\n---\n", fields: { priority: 5 } },
    { name: "numeric id", markdown: "---\nid: 368\n---\n", fields: { id: "368" } },
    { name: "a date without a time", markdown: "---\ncreated_at: 2024-06-01\n---\n", fields: { createdAt: new Date("2024-06-01T00:00:00Z") } },
    { name: "null values are not given", markdown: "---\nbranch:\nspecs: ~\npriority: null\n---\n", fields: {} },
    { name: "unknown keys are ignored, whatever their shape", markdown: "---\nnote: {deep: [1, {x: y}]}\n? [a, b]\n: c\n---\n", fields: {} },
    { name: "anchors and aliases", markdown: "---\nx: &paths [a.md, b.md]\nspecs: *paths\n---\n", fields: { specs: ["a.md", "b.md"] } },
  ])("$name", ({ markdown, fields }) => {
    expect(parseSessionDocument(markdown)).toEqual({ ...defaults, ...fields });
  });
});

describe("parseSessionDocument: what it refuses, and where it says", () => {
  it.each([
    { name: "unclosed front matter", markdown: "---\nid: x\n", message: /starts on line 1 has no closing --- line/, path: ["markdown"] },
    { name: "a duplicate key", markdown: "---\nid: a\nbranch: b\nid: c\n---\n", message: /line 4, column 1.*unique/, path: ["markdown", "frontMatter"] },
    { name: "a duplicate key, CRLF", markdown: "---\r\nid: a\r\nid: c\r\n---\r\n", message: /line 3, column 1/, path: ["markdown", "frontMatter"] },
    { name: "a tab indent", markdown: "---\nspecs:\n\t- a.md\n---\n", message: /line 3, column \d+/, path: ["markdown", "frontMatter"] },
    { name: "a bad nested mapping", markdown: "---\nid: a\nbranch: b\n  c: d\n---\n", message: /line 3, column \d+/, path: ["markdown", "frontMatter"] },
    { name: "a list", markdown: "---\n- a\n---\n", message: /mapping/, path: ["markdown", "frontMatter"] },
    { name: "a scalar", markdown: "---\njust words\n---\n", message: /mapping/, path: ["markdown", "frontMatter"] },
    { name: "specs a string", markdown: "---\nid: a\nspecs: a.md\n---\n", message: /"specs" \(line 3\): Expected a list of file paths/, path: ["markdown", "frontMatter", "specs"] },
    { name: "files with a number", markdown: "---\nfiles: [a.ts, 2]\n---\n", message: /"files\[1\]" \(line 2\)/, path: ["markdown", "frontMatter", "files", "1"] },
    { name: "an empty path", markdown: "---\nspecs: ['']\n---\n", message: /"specs\[0\]"/, path: ["markdown", "frontMatter", "specs", "0"] },
    { name: "tags a mapping", markdown: "---\ntags: {a: 1}\n---\n", message: /"tags"/, path: ["markdown", "frontMatter", "tags"] },
    { name: "priority a word", markdown: "---\npriority: asap\n---\n", message: /"priority".*critical, high, medium, low/, path: ["markdown", "frontMatter", "priority"] },
    { name: "priority a fraction", markdown: "---\npriority: 0.5\n---\n", message: /"priority"/, path: ["markdown", "frontMatter", "priority"] },
    { name: "priority huge", markdown: "---\npriority: 99999999999\n---\n", message: /"priority"/, path: ["markdown", "frontMatter", "priority"] },
    { name: "priority a boolean", markdown: "---\npriority: true\n---\n", message: /"priority"/, path: ["markdown", "frontMatter", "priority"] },
    { name: "id with a space", markdown: "---\nid: my task\n---\n", message: /"id"/, path: ["markdown", "frontMatter", "id"] },
    { name: "id a negative number", markdown: "---\nid: -1\n---\n", message: /"id"/, path: ["markdown", "frontMatter", "id"] },
    { name: "id a list", markdown: "---\nid: [a]\n---\n", message: /"id"/, path: ["markdown", "frontMatter", "id"] },
    { name: "branch a number", markdown: "---\nbranch: 7\n---\n", message: /"branch"/, path: ["markdown", "frontMatter", "branch"] },
    { name: "created_at nonsense", markdown: "---\ncreated_at: soon\n---\n", message: /"created_at".*ISO 8601/, path: ["markdown", "frontMatter", "created_at"] },
    { name: "created_at a number", markdown: "---\ncreated_at: 1700000000\n---\n", message: /"created_at"/, path: ["markdown", "frontMatter", "created_at"] },
    { name: "working_directory a list", markdown: "---\nworking_directory: [a]\n---\n", message: /"working_directory"/, path: ["markdown", "frontMatter", "working_directory"] },
    { name: "an unresolved alias", markdown: "---\nspecs: *nothing\n---\n", message: /"specs" \(line 2\)/, path: ["markdown", "frontMatter", "specs"] },
    { name: "a binary value", markdown: "---\nbranch: !!binary aGVsbG8=\n---\n", message: /"branch"/, path: ["markdown", "frontMatter", "branch"] },
  ])("$name", ({ markdown, message, path }) => {
    const error = failure(markdown);
    expect(error.status).toBe(400);
    expect(error.code).toBe("validation_failed");
    expect(error.message).toMatch(message);
    expect(error.issues).toEqual([{ path, message: error.message, code: "invalid_front_matter" }]);
  });

  it("refuses an alias bomb instead of expanding it", () => {
    const bomb = ["---", "a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 12; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(", ")}]`);
    bomb.push(`specs: *${String.fromCharCode(97 + 12)}`, "---", "");
    expect(failure(bomb.join("\n")).message).toMatch(/"specs"/);
  });
});

describe("parseSessionDocument: properties", () => {
  it("a document that does not open with --- gets the defaults, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 400 }), (markdown) => {
        fc.pre(!/^\uFEFF?---[ \t]*\r?$/.test(markdown.split("\n")[0]!));
        expect(parseSessionDocument(markdown)).toEqual(defaults);
      }),
    );
  });

  it("any front matter either parses or is refused with a 400, never a crash", () => {
    const yamlish = fc.array(fc.constantFrom("id", "priority", "tags", "specs", "files", "branch", "created_at", ":", " ", "-", "[", "]", "{", "}", "*", "&", "!", "'", '"', "\n", "\t", "#", "a", "1", "?", "|", ">"), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(yamlish, (parts) => {
        const markdown = `---\n${parts.join("")}\n---\nbody`;
        try {
          const parsed = parseSessionDocument(markdown);
          expect(Number.isInteger(parsed.priority)).toBe(true);
          expect(parsed.specs.every((s) => typeof s === "string")).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(400);
        }
      }),
      { numRuns: 500 },
    );
  });
});
