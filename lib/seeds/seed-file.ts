import { z } from "zod";

/**
 * pai-seed's seed.json, as Baton reads it. Every object is loose: keys Baton has no use for are kept
 * and given back on export, so a round trip through Baton loses nothing a newer pai-seed wrote.
 */
const datetime = z.iso.datetime({ offset: true });

export const seedItemSchema = z.looseObject({
  id: z.string().min(1).max(200),
  content: z.string().trim().min(1).max(10_000),
  source: z.string().min(1).max(200).default("import"),
  extractedAt: datetime.optional(),
  confirmedAt: datetime.optional(),
  confirmed: z.boolean().default(false),
  tags: z.array(z.string().max(64)).max(32).default([]),
});

export const seedProposalSchema = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.enum(["pattern", "insight", "self_knowledge"]),
  content: z.string().trim().min(1).max(10_000),
  source: z.string().min(1).max(200).default("import"),
  extractedAt: datetime.optional(),
  status: z.enum(["pending", "accepted", "rejected"]).default("pending"),
  method: z.string().max(50).optional(),
  confidence: z.number().min(0).max(1).optional(),
  decidedAt: datetime.optional(),
});

export const preferencesSchema = z.looseObject({
  responseStyle: z.enum(["concise", "detailed", "adaptive"]).optional(),
  timezone: z.string().max(100).optional(),
  locale: z.string().max(35).optional(),
});

export const identitySchema = z.looseObject({
  principalName: z.string().trim().min(1).max(100),
  aiName: z.string().trim().min(1).max(100),
  catchphrase: z.string().max(500).optional(),
  voiceId: z.string().max(200).optional(),
  preferences: preferencesSchema.optional(),
});

export const seedFileSchema = z.looseObject({
  version: z.string().regex(/^\d+\.\d+\.\d+$/, { message: "must be a semver string such as 1.0.0" }),
  identity: identitySchema,
  learned: z
    .looseObject({
      patterns: z.array(seedItemSchema).default([]),
      insights: z.array(seedItemSchema).default([]),
      selfKnowledge: z.array(seedItemSchema).default([]),
    })
    .default({ patterns: [], insights: [], selfKnowledge: [] }),
  state: z
    .looseObject({
      lastSessionId: z.string().max(200).optional(),
      lastSessionAt: datetime.optional(),
      proposals: z.array(seedProposalSchema).default([]),
      activeProjects: z.array(z.string().max(200)).default([]),
      checkpointRef: z.string().max(500).optional(),
    })
    .default({ proposals: [], activeProjects: [] }),
});

export type SeedFile = z.output<typeof seedFileSchema>;
export type SeedItem = z.output<typeof seedItemSchema>;
export type SeedProposal = z.output<typeof seedProposalSchema>;

/** learned.<category> ↔ learning kind. */
export const categoryKinds = { patterns: "pattern", insights: "insight", selfKnowledge: "self_knowledge" } as const;

/** PUT /api/seed: identity fields to set; the rest of the identity is kept. */
export const identityUpdateSchema = z.strictObject({
  identity: z.looseObject({
    principalName: z.string().trim().min(1).max(100).optional(),
    aiName: z.string().trim().min(1).max(100).optional(),
    catchphrase: z.string().max(500).optional(),
    voiceId: z.string().max(200).optional(),
    preferences: preferencesSchema.optional(),
  }),
});

/** Splits an object into the keys a schema knows and the rest. */
export function unknownKeys(value: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !known.includes(k)));
}
