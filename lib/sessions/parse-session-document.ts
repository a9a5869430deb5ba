import { isMap, isNode, isScalar, LineCounter, parseDocument, type Document, type YAMLMap } from "yaml";
import { z } from "zod";
import { ApiError } from "../api/errors";
import { oneLine } from "../api/zod-fields";
import { outsideRepository } from "./repository-path";
import { DEFAULT_SESSION_PRIORITY, SESSION_PRIORITIES, TASK_ID_PATTERN, type SessionPriorityName } from "../rules";

/** What Baton reads from a session document's front matter; everything else stays in the markdown. */
export type SessionFrontMatter = {
  id: string | null;
  priority: number;
  tags: string[];
  branch: string | null;
  specs: string[];
  files: string[];
  createdAt: Date | null;
  workingDirectory: string | null;
};

// The fields are shown on lines of their own where the document is picked up (MCP, `baton pickup`).
// Paths inside the repository only (lib/sessions/repository-path.ts).
const repositoryPath = z
  .string()
  .min(1, { message: "A path is empty." })
  .max(1024)
  .regex(...oneLine())
  .superRefine((listed, ctx) => {
    const outside = outsideRepository(listed);
    if (outside) ctx.addIssue({ code: "custom", message: `${listed} is ${outside}: list paths inside the repository, relative to its root.` });
  });
const pathList = z.array(repositoryPath, { error: "Expected a list of file paths." }).max(500);

const priorityMessage = "Expected an integer (lower runs first) or one of critical, high, medium, low.";
const priorityField = z.union([z.number(), z.string()], { error: priorityMessage }).transform((value, ctx) => {
  const priority = priorityValue(value);
  if (priority === undefined) {
    ctx.addIssue({ code: "custom", message: priorityMessage });
    return z.NEVER;
  }
  return priority;
});

const fieldsSchema = z.object({
  id: z
    .union([z.string(), z.int().nonnegative()], { error: "Expected a string id." })
    .transform(String)
    .pipe(z.string().regex(TASK_ID_PATTERN, { message: "Use 1–100 letters, digits, dots, dashes or underscores, starting with a letter or digit." }))
    .optional(),
  priority: priorityField.optional(),
  tags: z.array(z.string().min(1).max(100).regex(...oneLine()), { error: "Expected a list of tags." }).max(100).optional(),
  branch: z.string({ error: "Expected a branch name." }).min(1).max(255).regex(...oneLine()).optional(),
  specs: pathList.optional(),
  files: pathList.optional(),
  created_at: z
    .union([z.string(), z.date()], { error: "Expected a date such as 2025-01-31T09:00:00Z." })
    .transform((v) => (v instanceof Date ? v : new Date(v)))
    .refine((d) => !Number.isNaN(d.getTime()), { message: "Not a date; use ISO 8601 such as 2025-01-31T09:00:00Z." })
    .optional(),
  working_directory: z.string({ error: "Expected a directory path." }).min(1).max(4096).regex(...oneLine()).optional(),
});
type FieldName = keyof typeof fieldsSchema.shape;
const fieldNames = new Set<string>(Object.keys(fieldsSchema.shape));

const openingLine = /^\uFEFF?---[ \t]*$/;
const closingLine = /^---[ \t]*$/;

/** The front matter as Baton reads it: what the document names, the defaults for what it does not. */
function frontMatterOf(f: Partial<z.output<typeof fieldsSchema>>): SessionFrontMatter {
  return {
    id: f.id ?? null,
    priority: f.priority ?? DEFAULT_SESSION_PRIORITY,
    tags: f.tags ?? [],
    branch: f.branch ?? null,
    specs: f.specs ?? [],
    files: f.files ?? [],
    createdAt: f.created_at ?? null,
    workingDirectory: f.working_directory ?? null,
  };
}

/**
 * Reads the YAML front matter of a session document (between a first line `---` and the next `---`
 * line). A document without front matter gets the defaults. Anything malformed is a 400 that says
 * where: line and column for YAML errors (counted in the whole document), the field otherwise.
 * Unknown keys are allowed and not read.
 */
export function parseSessionDocument(markdown: string): SessionFrontMatter {
  const yamlText = frontMatterText(markdown);
  if (yamlText === null) return frontMatterOf({});
  const lineCounter = new LineCounter();
  const doc = parseYaml(yamlText, lineCounter);
  if (doc.contents === null) return frontMatterOf({});
  const { values, lineOf } = readFields(doc as Document.Parsed & { contents: YAMLMap }, lineCounter);
  const parsed = fieldsSchema.safeParse(values);
  if (!parsed.success) throw fieldError(parsed.error.issues[0]!, lineOf);
  return frontMatterOf(parsed.data);
}

/**
 * The document below its front matter (all of it without one). A document whose body is blank says
 * nothing to do: the one who picks it up would get a list of files and no task.
 */
export function sessionBody(markdown: string): string {
  const lines = markdown.split("\n");
  if (!openingLine.test(stripCr(lines[0]!))) return markdown;
  const end = lines.findIndex((line, i) => i > 0 && closingLine.test(stripCr(line)));
  return end === -1 ? "" : lines.slice(end + 1).join("\n");
}

/** The text between the opening and closing `---` lines, line breaks kept; null without front matter. */
function frontMatterText(markdown: string): string | null {
  const lines = markdown.split("\n");
  if (!openingLine.test(stripCr(lines[0]!))) return null;
  const end = lines.findIndex((line, i) => i > 0 && closingLine.test(stripCr(line)));
  if (end === -1) {
    throw invalid("The front matter that starts on line 1 has no closing --- line.", ["markdown"]);
  }
  // The YAML text keeps its line breaks as they were, so positions map back with a fixed offset of one line.
  return lines
    .slice(1, end)
    .map((line) => `${line}\n`)
    .join("");
}

/** The YAML document, refused unless it is valid and (when not empty) a mapping. */
function parseYaml(yamlText: string, lineCounter: LineCounter): Document.Parsed {
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw invalid(`The front matter is not valid YAML at line ${line + 1}, column ${col}: ${error.message}`, ["markdown", "frontMatter"]);
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw invalid("The front matter must be a mapping of keys to values (key: value), not a list or a single value.", ["markdown", "frontMatter"]);
  }
  return doc;
}

/** The values of the fields Baton reads, and the document line each is on (for error messages). */
function readFields(doc: Document.Parsed & { contents: YAMLMap }, lineCounter: LineCounter) {
  const values: Record<string, unknown> = {};
  const lineOf: Record<string, number> = {};
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || typeof pair.key.value !== "string" || !fieldNames.has(pair.key.value)) continue;
    const name = pair.key.value;
    lineOf[name] = lineCounter.linePos(pair.key.range?.[0] ?? 0).line + 1;
    let value: unknown;
    try {
      value = isNode(pair.value) ? pair.value.toJS(doc, { maxAliasCount: 100 }) : pair.value;
    } catch (cause) {
      throw invalid(`Front matter field "${name}" (line ${lineOf[name]}): ${(cause as Error).message}`, ["markdown", "frontMatter", name]);
    }
    // `branch:` with nothing after it is YAML null: treat it as not given.
    if (value !== null && value !== undefined) values[name] = value;
  }
  return { values, lineOf };
}

function fieldError(issue: z.core.$ZodIssue, lineOf: Record<string, number>): ApiError {
  const field = String(issue.path[0]) as FieldName;
  const where = [field, ...issue.path.slice(1).map((p) => `[${String(p)}]`)].join("");
  return invalid(`Front matter field "${where}" (line ${lineOf[field]}): ${issue.message}`, ["markdown", "frontMatter", ...issue.path.map(String)]);
}

/** Named priorities are what people write by hand; integers let a queue be ordered finely. */
function priorityValue(value: number | string): number | undefined {
  if (typeof value === "string") {
    const name = value.trim().toLowerCase();
    if (name in SESSION_PRIORITIES) return SESSION_PRIORITIES[name as SessionPriorityName];
    if (!/^-?\d{1,7}$/.test(name)) return undefined;
    value = Number(name);
  }
  return Number.isInteger(value) && Math.abs(value) <= 1_000_000 ? value : undefined;
}

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function invalid(message: string, path: string[]): ApiError {
  return new ApiError("validation_failed", message, [{ path, message, code: "invalid_front_matter" }]);
}
