import { z } from "zod";
import { limitParam } from "../api/parse-query";
import { isoDate, isoDateOrNull, nulFreeText } from "../api/zod-fields";
import { SESSION_STATUSES, TASK_ID_PATTERN } from "../rules";

/** Stored exactly as sent: the front matter is read from it, and unknown keys live on in it. */
export const newSessionSchema = z.object({
  markdown: nulFreeText.refine((s) => s.trim().length > 0, { message: "Write the session document: markdown is empty." }),
});

/** A session id names a file on developers' machines as a task id does, so it follows the same pattern. */
export const sessionIdParam = z
  .string()
  .regex(TASK_ID_PATTERN, { message: "A session id is 1–100 letters, digits, dots, dashes or underscores, starting with a letter or digit." });

export const sessionListQuerySchema = z.object({
  status: z.enum(SESSION_STATUSES).optional(),
  limit: limitParam,
  cursor: z.string().optional(),
});
export type SessionListQuery = z.output<typeof sessionListQuerySchema>;

/** What the API says about a session document: project by slug, claimer by name and email, no ids of people. */
export const sessionOutSchema = z.object({
  id: z.string(),
  project: z.string(),
  status: z.enum(SESSION_STATUSES),
  priority: z.number().int(),
  tags: z.array(z.string()),
  branch: z.string().nullable(),
  specs: z.array(z.string()),
  files: z.array(z.string()),
  workingDirectory: z.string().nullable(),
  markdown: z.string(),
  claimedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
  claimedAt: isoDateOrNull,
  completedAt: isoDateOrNull,
  createdAt: isoDate,
  /** Who queued it, by name. */
  author: z.string().nullable(),
});
export type SessionOut = z.output<typeof sessionOutSchema>;
