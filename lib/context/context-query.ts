import { z } from "zod";

const hint = z.string().trim().max(2000).optional();

/** GET /api/context's query string. */
export const contextQuerySchema = z.object({
  project: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]*$/, { message: "must be a project slug" })
    .max(64)
    .optional(),
  budget: z.coerce.number().int().min(200).max(32_000).default(2000),
  // Claude Code keeps the first 10,000 characters of injected context; 9,500 leaves room for its own framing.
  maxChars: z.coerce.number().int().min(200).max(200_000).default(9500),
  mode: z.enum(["full", "complement"]).default("full"),
  format: z.enum(["json", "text", "claude"]).default("json"),
  cwd: hint,
  remote: hint,
  branch: hint,
  task: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, { message: "must be a task id such as task-368" })
    .optional(),
  q: hint,
  source: z.enum(["startup", "resume", "clear", "compact", "fork"]).optional(),
  sessionId: z.string().max(200).optional(),
});
export type ContextQuery = z.output<typeof contextQuerySchema>;
