import { z } from "zod";
import { containsNul, NUL_RULE } from "../rules";

/** Text that may be stored: libSQL cuts text at a NUL character, so one is refused rather than half the text kept. */
export const nulFreeText = z.string().refine((s) => !containsNul(s), { message: NUL_RULE });

/** A stored time as the API shows it: an ISO 8601 string in UTC. */
export const isoDate = z.date().transform((d) => d.toISOString());
export const isoDateOrNull = isoDate.nullable();
