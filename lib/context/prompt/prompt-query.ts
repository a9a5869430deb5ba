import { z } from "zod";
import { DEFAULT_PROMPT_BUDGET, MAX_CONTEXT_BUDGET, MAX_QUERY_CHARS, MAX_SESSION_ID_CHARS, MIN_PROMPT_BUDGET } from "../../rules";
import { contextQuerySchema } from "../context-query";
import { wholeNumber } from "../../api/parse-query";

/**
 * GET /api/context/prompt's query string: the session and its prompt are required; the project is
 * the one the session started in, else resolved from the hints as at session start; the same
 * character limit and formats.
 */
export const promptQuerySchema = contextQuerySchema.pick({ project: true, guess: true, maxChars: true, format: true, cwd: true, remote: true }).extend({
  sessionId: z.string().trim().min(1, { message: "must name the session" }).max(MAX_SESSION_ID_CHARS),
  q: z.string().trim().min(1, { message: "must hold the prompt" }).max(MAX_QUERY_CHARS),
  budget: wholeNumber(MIN_PROMPT_BUDGET, MAX_CONTEXT_BUDGET).default(DEFAULT_PROMPT_BUDGET),
});
export type PromptQuery = z.output<typeof promptQuerySchema>;
