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
  /**
   * When the handoff was written, as the client says (a hook that could not reach the server sends it
   * later from its spool): its time in the project's history, kept within HANDOFF_BACKDATE_MS (not after
   * now, not before the spool's 14 days); absent, the time it arrives.
   */
  writtenAt: z.iso.datetime({ offset: true, message: "Expected a time such as 2026-01-31T09:00:00Z." }).optional(),
  ...producedByFields,
});
export type NewHandoff = z.output<typeof newHandoffSchema>;

/** How far back a client's writtenAt may date a handoff: the spool's life (cli/src/hooks/spool.ts). */
export const HANDOFF_BACKDATE_MS = 14 * 86_400_000;

/** The time a handoff is filed at: the client's writtenAt within [now − HANDOFF_BACKDATE_MS, now], else now. */
export function handoffTime(writtenAt: string | undefined, now = new Date()): Date {
  const at = writtenAt === undefined ? NaN : Date.parse(writtenAt);
  if (!Number.isFinite(at)) return now;
  return new Date(Math.min(now.getTime(), Math.max(now.getTime() - HANDOFF_BACKDATE_MS, at)));
}

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
