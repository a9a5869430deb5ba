import { z } from "zod";
import { learningKinds } from "../db/schema";
import { slugSchema } from "../projects/project-schemas";

export const MAX_CONTENT = 10_000;

export const tagsSchema = z.array(z.string().trim().min(1).max(64)).max(32);
export const contentSchema = z.string().trim().min(1, { message: "Content is empty." }).max(MAX_CONTENT);

export const newLearningSchema = z.strictObject({
  kind: z.enum(learningKinds),
  content: contentSchema,
  project: slugSchema.nullish(),
  tags: tagsSchema.default([]),
  source: z.string().trim().min(1).max(200).default("manual"),
  confirmed: z.boolean().default(false),
  createdAt: z.iso.datetime({ offset: true }).optional(),
});

export const learningPatchSchema = z
  .strictObject({
    kind: z.enum(learningKinds).optional(),
    content: contentSchema.optional(),
    tags: tagsSchema.optional(),
    confirmed: z.boolean().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "Send at least one of kind, content, tags, confirmed." });

export const learningQuerySchema = z.object({
  q: z.string().max(2000).optional(),
  kind: z.enum(learningKinds).optional(),
  project: slugSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const learningOutSchema = z
  .object({
    id: z.string(),
    kind: z.enum(learningKinds),
    content: z.string(),
    source: z.string(),
    confirmed: z.boolean(),
    confirmedAt: z.date().nullable(),
    tags: z.array(z.string()),
    project: z.string().nullable(),
    createdAt: z.date(),
    updatedAt: z.date(),
    lastInjectedAt: z.date().nullable(),
    score: z.number().optional(),
  })
  .transform((l) => ({
    ...l,
    confirmedAt: iso(l.confirmedAt),
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
    lastInjectedAt: iso(l.lastInjectedAt),
  }));
