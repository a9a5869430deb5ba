import { z } from "zod";
import { wholeNumber } from "../api/parse-query";
import {
  CLAUDE_CODE_MAX_CHARS,
  CONTEXT_MODES,
  DEFAULT_CONTEXT_BUDGET,
  DEFAULT_CONTEXT_MAX_CHARS,
  MAX_CONTEXT_BUDGET,
  MAX_CONTEXT_CHARS,
  MAX_QUERY_CHARS,
  MAX_SESSION_ID_CHARS,
  MIN_CONTEXT_BUDGET,
  MIN_CONTEXT_CHARS,
  SLUG_MAX,
  SESSION_SOURCES,
  SLUG_PATTERN,
  TASK_ID_PATTERN,
} from "../rules";

const hint = z.string().trim().max(MAX_QUERY_CHARS).optional();

const slug = z.string().regex(SLUG_PATTERN, { message: "must be a project slug" }).max(SLUG_MAX);

/** GET /api/context's query string. */
export const contextQuerySchema = z.object({
  /** The project the user configured: it is the session's, or the answer is a 404/403. */
  project: slug.optional(),
  /**
   * The slug a client guessed from the remote or the directory: only the last resort, among the
   * user's own projects (lib/context/project/choose-project.ts). A client's guess is not always a slug: then none.
   */
  guess: z.string().optional().transform((g) => (g && slug.safeParse(g).success ? g : undefined)),
  budget: wholeNumber(MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET).default(DEFAULT_CONTEXT_BUDGET),
  maxChars: wholeNumber(MIN_CONTEXT_CHARS, MAX_CONTEXT_CHARS).default(DEFAULT_CONTEXT_MAX_CHARS),
  mode: z.enum(CONTEXT_MODES).default("full"),
  format: z.enum(["json", "text", "claude"]).default("json"),
  cwd: hint,
  remote: hint,
  branch: hint,
  task: z.string().regex(TASK_ID_PATTERN, { message: "must be a task id such as task-368" }).optional(),
  /** The task whose memory the repository's CLAUDE.local.md already imports (the hook reads the block `baton task start` writes). */
  taskImported: z.string().regex(TASK_ID_PATTERN, { message: "must be a task id such as task-368" }).optional(),
  q: hint,
  source: z.enum(SESSION_SOURCES).optional(),
  // Trimmed as the prompt stage's is: " s1" and "s1" are one session at both stages.
  sessionId: z.string().trim().max(MAX_SESSION_ID_CHARS).optional(),
});
export type ContextQuery = z.output<typeof contextQuerySchema>;

/**
 * The query as its format can use it: Claude Code keeps the first CLAUDE_CODE_MAX_CHARS of a hook's
 * injected context and shows the rest as a file path, so an answer in its format (the session start's
 * and the prompt stage's) is never longer, whatever maxChars asks.
 */
export function fitFormat<Q extends { format: string; maxChars: number }>(q: Q): Q {
  return q.format === "claude" && q.maxChars > CLAUDE_CODE_MAX_CHARS ? { ...q, maxChars: CLAUDE_CODE_MAX_CHARS } : q;
}
