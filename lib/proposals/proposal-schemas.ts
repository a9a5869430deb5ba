import { z } from "zod";
import { learningKinds, proposalStatuses } from "../db/schema";
import { contentSchema } from "../learnings/learning-schemas";
import { slugSchema } from "../projects/project-schemas";

export const newProposalSchema = z.strictObject({
  kind: z.enum(learningKinds),
  content: contentSchema,
  source: z.string().trim().min(1).max(200).default("manual"),
  confidence: z.number().min(0).max(1).default(0.5),
  project: slugSchema.nullish(),
});

export const proposalQuerySchema = z.object({
  status: z.enum(proposalStatuses).default("pending"),
  project: slugSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(500).optional(),
});

export const acceptSchema = z.strictObject({ content: contentSchema.optional() });

export const reviewItemSchema = z.strictObject({
  id: z.string().min(1).max(100),
  action: z.enum(["accept", "reject"]),
  content: contentSchema.optional(),
});
/** The bulk review body: a list of decisions, or `{ items: [...] }`. */
export const reviewSchema = z.union([
  z.array(reviewItemSchema).min(1).max(500),
  z.strictObject({ items: z.array(reviewItemSchema).min(1).max(500) }).transform((b) => b.items),
]);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const proposalOutSchema = z
  .object({
    id: z.string(),
    kind: z.enum(learningKinds),
    content: z.string(),
    source: z.string(),
    confidence: z.number(),
    status: z.enum(proposalStatuses),
    mergedCount: z.number(),
    project: z.string().nullable(),
    learningId: z.string().nullable(),
    decidedAt: z.date().nullable(),
    createdAt: z.date(),
  })
  .transform((p) => ({ ...p, decidedAt: iso(p.decidedAt), createdAt: p.createdAt.toISOString() }));
