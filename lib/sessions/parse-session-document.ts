import { isMap, isNode, isScalar, LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { ApiError } from "../api/errors";
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

const pathList = z.array(z.string().min(1, { message: "A path is empty." }).max(1024), { error: "Expected a list of file paths." }).max(500);

const priorityMessage = `Expected an integer (lower runs first) or one of ${Object.keys(SESSION_PRIORITIES).join(", ")}.`;
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
  tags: z.array(z.string().min(1).max(100), { error: "Expected a list of tags." }).max(100).optional(),
  branch: z.string({ error: "Expected a branch name." }).min(1).max(255).optional(),
  specs: pathList.optional(),
  files: pathList.optional(),
  created_at: z
    .union([z.string(), z.date()], { error: "Expected a date such as 2025-01-31T09:00:00Z." })
    .transform((v) => (v instanceof Date ? v : new Date(v)))
    .refine((d) => !Number.isNaN(d.getTime()), { message: "Not a date; use ISO 8601 such as 2025-01-31T09:00:00Z." })
    .optional(),
  working_directory: z.string({ error: "Expected a directory path." }).min(1).max(4096).optional(),
});
type FieldName = keyof typeof fieldsSchema.shape;
const fieldNames = new Set<string>(Object.keys(fieldsSchema.shape));

const openingLine = /^\uFEFF?---[ \t]*$/;
const closingLine = /^---[ \t]*$/;

/**
 * Reads the YAML front matter of a session document (between a first line `---` and the next `---`
 * line). A document without front matter gets the defaults. Anything malformed is a 400 that says
 * where: line and column for YAML errors (counted in the whole document), the field otherwise.
 * Unknown keys are allowed and not read.
 */
export function parseSessionDocument(markdown: string): SessionFrontMatter {
  const lines = markdown.split("\n");
  if (!openingLine.test(stripCr(lines[0]!))) return frontMatterOf({});
  const end = lines.findIndex((line, i) => i > 0 && closingLine.test(stripCr(line)));
  if (end === -1) {
    throw invalid("The front matter that starts on line 1 has no closing --- line.", ["markdown"]);
  }
  // The YAML text keeps its line breaks as they were, so positions map back with a fixed offset of one line.
  const yamlText = lines
    .slice(1, end)
    .map((line) => `${line}\n`)
    .join("");
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    throw invalid(`The front matter is not valid YAML at line ${line + 1}, column ${col}: ${error.message}`, ["markdown", "frontMatter"]);
  }
  if (doc.contents === null) return frontMatterOf({});
  if (!isMap(doc.contents)) {
    throw invalid("The front matter must be a mapping of keys to values (key: value), not a list or a single value.", ["markdown", "frontMatter"]);
  }

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

  const parsed = fieldsSchema.safeParse(values);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0]) as FieldName;
    const where = [field, ...issue.path.slice(1).map((p) => `[${String(p)}]`)].join("");
    throw invalid(`Front matter field "${where}" (line ${lineOf[field]}): ${issue.message}`, ["markdown", "frontMatter", ...issue.path.map(String)]);
  }
  return frontMatterOf(parsed.data);
}

/** What the document says, with the defaults for what it leaves out. */
function frontMatterOf(f: z.output<typeof fieldsSchema>): SessionFrontMatter {
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
