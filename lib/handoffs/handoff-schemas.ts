import { z } from "zod";
import { limitParam } from "../api/parse-query";
import { isoDate, nulFreeText, oneLine, producedByFields, producedByOutFields } from "../api/zod-fields";

/** Kept exactly as sent (no trim): a handoff is read back by agents and diffed by people. */
export const handoffMarkdownSchema = nulFreeText.refine((s) => s.trim().length > 0, { message: "Write the handoff: markdown is empty." });

const branchSchema = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(...oneLine("A branch name has no control characters."));

export const newHandoffSchema = z.object({
  markdown: handoffMarkdownSchema,
  sessionId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^\p{Cc}\s]+$/u, { message: "A session id has no spaces or control characters." })
    .optional(),
  branch: branchSchema.optional(),
  /** A display name to keep beside the author (signedAs); the author is always the token's user. */
  author: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(...oneLine("An author name has no control characters."))
    .optional(),
  ...producedByFields,
});
export type NewHandoff = z.output<typeof newHandoffSchema>;

/** `branch=` with nothing after it means no branch filter, as a shell hook on a detached HEAD sends it. */
const optionalBranchParam = z.preprocess((v) => (v === "" ? undefined : v), branchSchema.optional());

export const handoffListQuerySchema = z.object({
  branch: optionalBranchParam,
  limit: limitParam,
  cursor: z.string().optional(),
});

export type HandoffListQuery = z.output<typeof handoffListQuerySchema>;

export const latestHandoffQuerySchema = z.object({ branch: optionalBranchParam });

/** What the API says about a handoff: its project by slug, no user or project ids. */
export const handoffOutSchema = z.object({
  id: z.string(),
  project: z.string(),
  markdown: z.string(),
  sessionId: z.string().nullable(),
  branch: z.string().nullable(),
  author: z.string(),
  signedAs: z.string().nullable(),
  ...producedByOutFields,
  createdAt: isoDate,
});
export type HandoffOut = z.output<typeof handoffOutSchema>;
