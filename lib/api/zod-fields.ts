import { z } from "zod";
import { AGENT_NAMES, containsNul, MAX_MODEL_CHARS, MODEL_NAME_PATTERN, NUL_RULE } from "../rules";

/** Text that may be stored: libSQL cuts text at a NUL character, so one is refused rather than half the text kept. */
export const nulFreeText = z.string().refine((s) => !containsNul(s), { message: NUL_RULE });

/**
 * Text shown on one line of other people's contexts and tools (a name, a branch, a path): no line break or
 * other control character, which would let it start a line (a heading, a host's tag) of its own.
 */
export const ONE_LINE = /^[^\p{Cc}\p{Zl}\p{Zp}]+$/u;
export const oneLine = (message = "No line breaks or control characters.") => [ONE_LINE, { message }] as const;

/** A stored time as the API shows it: an ISO 8601 string in UTC. */
export const isoDate = z.date().transform((d) => d.toISOString());
export const isoDateOrNull = isoDate.nullable();

/**
 * Which coding agent produced a handoff or proposal and its model, as the client reports them: optional
 * (a client that does not say stores null), and a value outside the rules is refused, never stored.
 */
export const producedByFields = {
  agent: z.enum(AGENT_NAMES).nullish(),
  model: z
    .string()
    .trim()
    .min(1)
    .max(MAX_MODEL_CHARS)
    .regex(MODEL_NAME_PATTERN, { message: "A model name is printable text: no control or invisible formatting characters." })
    .nullish(),
};

/** The same two as an answer gives them: null where the client did not say. */
export const producedByOutFields = { agent: z.enum(AGENT_NAMES).nullable(), model: z.string().nullable() };
