import { z } from "zod";
import { isoDate, isoDateOrNull, producedByFields, producedByOutFields } from "../api/zod-fields";
import { contentSchema } from "../learnings/learning-schemas";
import { slugSchema } from "../projects/project-schemas";
import { sessionHintsSchema } from "../context/project/project-query";
import { wholeNumber } from "../api/parse-query";
import {
  EVIDENCE_SPEAKERS,
  LEARNING_KINDS,
  LESSON_KINDS,
  MAX_EVIDENCE_CHARS,
  MAX_EVIDENCE_LINES,
  MAX_PAGE_SIZE,
  MAX_SUPERSEDES,
  MAX_SOURCE_CHARS,
  PROPOSAL_METHODS,
  PROPOSAL_STATUSES,
  REVIEW_PAGE_SIZE,
  SOURCE_DEFAULTS,
} from "../rules";

/** One line of a session a proposal came from (see EvidenceLine in lib/rules.ts). */
const evidenceLineSchema = z.strictObject({
  turn: z.number().int().min(0),
  at: z.iso.datetime({ offset: true }).nullable(),
  who: z.enum(EVIDENCE_SPEAKERS),
  text: z.string().min(1).max(MAX_EVIDENCE_CHARS),
});
const evidenceSchema = z.array(evidenceLineSchema).max(MAX_EVIDENCE_LINES);
/**
 * Evidence as answers give it: the shape without the input's limits, so a row stored under other limits
 * (an older version's, an import's) is still listed, never refused as if the reader had sent it.
 */
const evidenceOutSchema = z.array(evidenceLineSchema.extend({ text: z.string() }));

export const newProposalSchema = z.strictObject({
  kind: z.enum(LEARNING_KINDS),
  content: contentSchema,
  source: z.string().trim().min(1).max(MAX_SOURCE_CHARS).default(SOURCE_DEFAULTS.typed),
  confidence: z.number().min(0).max(1).default(0.5),
  project: slugSchema.nullish(),
  /**
   * A session-end hook's: the session whose project the proposal belongs to, as the server decides it
   * (the project the session's start was served for, else these hints resolved), as a handoff is filed.
   * Without `project` only; none of the user's projects: personal.
   */
  session: sessionHintsSchema.optional(),
  /** What kind of lesson it is, the lines it came from, and how it was found: optional, refused when outside the rules. */
  lesson: z.enum(LESSON_KINDS).nullish(),
  evidence: evidenceSchema.nullish(),
  method: z.enum(PROPOSAL_METHODS).nullish(),
  ...producedByFields,
});

export const proposalQuerySchema = z.object({
  status: z.enum(PROPOSAL_STATUSES).default("pending"),
  project: slugSchema.optional(),
  limit: wholeNumber(1, MAX_PAGE_SIZE).default(REVIEW_PAGE_SIZE),
  cursor: z.string().max(500).optional(),
});

/** Learning ids an accepted proposal replaces: kept, searchable, never injected again. */
const supersedesSchema = z
  .array(z.string().min(1).max(100))
  .max(MAX_SUPERSEDES)
  .refine((ids) => new Set(ids).size === ids.length, { message: "A learning appears twice in supersedes." });

export const acceptSchema = z.strictObject({ content: contentSchema.optional(), supersedes: supersedesSchema.optional() });

export const reviewItemSchema = z
  .strictObject({
    id: z.string().min(1).max(100),
    action: z.enum(["accept", "reject"]),
    content: contentSchema.optional(),
    supersedes: supersedesSchema.optional(),
  })
  .refine((d) => d.action === "accept" || !d.supersedes?.length, { message: "Only an accepted proposal can supersede learnings.", path: ["supersedes"] });
/** The bulk review body: a list of decisions, or `{ items: [...] }`. */
export const reviewSchema = z.union([
  z.array(reviewItemSchema).min(1).max(500),
  z.strictObject({ items: z.array(reviewItemSchema).min(1).max(500) }).transform((b) => b.items),
]);

export const proposalOutSchema = z.object({
  id: z.string(),
  kind: z.enum(LEARNING_KINDS),
  content: z.string(),
  source: z.string(),
  confidence: z.number(),
  status: z.enum(PROPOSAL_STATUSES),
  mergedCount: z.number(),
  project: z.string().nullable(),
  learningId: z.string().nullable(),
  // Any text: pai-seed imports keep methods of their own ("regex", "llm").
  method: z.string().nullable(),
  lesson: z.enum(LESSON_KINDS).nullable(),
  evidence: evidenceOutSchema.nullable(),
  ...producedByOutFields,
  decidedAt: isoDateOrNull,
  createdAt: isoDate,
});
