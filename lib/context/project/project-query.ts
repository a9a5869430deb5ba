import { z } from "zod";
import { MAX_SESSION_ID_CHARS } from "../../rules";
import { contextQuerySchema } from "../context-query";

/**
 * What a hook knows of where a session runs, as GET /api/context takes it: the configured project, the
 * guess, cwd and remote, and the session's id (its start decided its project). GET
 * /api/context/project's query string, and the hints of a handoff a hook posts.
 */
export const sessionHintsSchema = contextQuerySchema.pick({ project: true, guess: true, cwd: true, remote: true }).extend({
  sessionId: z.string().trim().min(1).max(MAX_SESSION_ID_CHARS).optional(),
});
export type SessionHints = z.output<typeof sessionHintsSchema>;
