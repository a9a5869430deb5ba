import { z } from "zod";
import { limitParam } from "../api/parse-query";
import { sessionStatuses } from "../db/schema";
import { itemIdPattern } from "./parse-session-document";

/**
 * Stored exactly as sent: the front matter is read from it, and unknown keys live on in it. NUL is
 * refused because libSQL cuts text at it.
 */
export const newSessionSchema = z.object({
  markdown: z
    .string()
    .refine((s) => s.trim().length > 0, { message: "Write the session document: markdown is empty." })
    .refine((s) => !s.includes("\u0000"), { message: "The markdown contains a NUL character, which cannot be stored." }),
});

export const sessionIdParam = z
  .string()
  .regex(itemIdPattern, { message: "A session id is 1–100 letters, digits, dots, dashes or underscores, starting with a letter or digit." });

export const sessionListQuerySchema = z.object({
  status: z.enum(sessionStatuses).optional(),
  limit: limitParam,
  cursor: z.string().optional(),
});
export type SessionListQuery = z.output<typeof sessionListQuerySchema>;

const isoDate = z.date().transform((d) => d.toISOString());

/** What the API says about a session document: project by slug, claimer by name and email, no ids of people. */
export const sessionOutSchema = z.object({
  id: z.string(),
  project: z.string(),
  status: z.enum(sessionStatuses),
  priority: z.number().int(),
  tags: z.array(z.string()),
  branch: z.string().nullable(),
  specs: z.array(z.string()),
  files: z.array(z.string()),
  workingDirectory: z.string().nullable(),
  markdown: z.string(),
  claimedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
  claimedAt: isoDate.nullable(),
  completedAt: isoDate.nullable(),
  createdAt: isoDate,
});
export type SessionOut = z.output<typeof sessionOutSchema>;
