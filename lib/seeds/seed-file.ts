import { z } from "zod";
import { LEARNING_KINDS, MAX_CONTENT_CHARS, MAX_NAME_CHARS, MAX_SOURCE_CHARS, MAX_TAG_CHARS, MAX_TAGS, PROPOSAL_STATUSES, SEED_CATEGORIES, SOURCE_DEFAULTS, type SeedCategory } from "../rules";

/**
 * pai-seed's seed.json, as Baton reads it. Every object is loose: keys Baton has no use for are kept
 * and given back on export, so a round trip through Baton loses nothing a newer pai-seed wrote.
 */
const datetime = z.iso.datetime({ offset: true });

export const seedItemSchema = z.looseObject({
  id: z.string().min(1).max(200),
  content: z.string().trim().min(1).max(MAX_CONTENT_CHARS),
  source: z.string().min(1).max(MAX_SOURCE_CHARS).default(SOURCE_DEFAULTS.import),
  extractedAt: datetime.optional(),
  confirmedAt: datetime.optional(),
  confirmed: z.boolean().default(false),
  tags: z.array(z.string().max(MAX_TAG_CHARS)).max(MAX_TAGS).default([]),
  /** Baton's own key: in every context, ahead of the ranked learnings. Written back on export when true. */
  pinned: z.boolean().default(false),
  /**
   * Baton's own key: when a newer learning superseded this one (searchable, never injected). Written
   * back on export when set, so a round trip does not put a superseded learning back in use.
   */
  supersededAt: datetime.optional(),
});

export const seedProposalSchema = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.enum(LEARNING_KINDS),
  content: z.string().trim().min(1).max(MAX_CONTENT_CHARS),
  source: z.string().min(1).max(MAX_SOURCE_CHARS).default(SOURCE_DEFAULTS.import),
  extractedAt: datetime.optional(),
  status: z.enum(PROPOSAL_STATUSES).default("pending"),
  method: z.string().max(50).optional(),
  confidence: z.number().min(0).max(1).optional(),
  decidedAt: datetime.optional(),
});

/** How an agent should answer, as pai-seed names it. */
export const RESPONSE_STYLES = ["concise", "detailed", "adaptive"] as const;

export const preferencesSchema = z.looseObject({
  responseStyle: z.enum(RESPONSE_STYLES).optional(),
  timezone: z.string().max(100).optional(),
  locale: z.string().max(35).optional(),
});

export const identitySchema = z.looseObject({
  principalName: z.string().trim().min(1).max(MAX_NAME_CHARS),
  aiName: z.string().trim().min(1).max(MAX_NAME_CHARS),
  catchphrase: z.string().max(500).optional(),
  voiceId: z.string().max(200).optional(),
  preferences: preferencesSchema.optional(),
});

const seedItemList = z.array(seedItemSchema).default([]);
const learnedShape = Object.fromEntries(SEED_CATEGORIES.map((category) => [category, seedItemList])) as Record<SeedCategory, typeof seedItemList>;

/** `learned` with every category present and empty. */
export function emptyLearned<T>(): Record<SeedCategory, T[]> {
  return Object.fromEntries(SEED_CATEGORIES.map((category) => [category, []])) as unknown as Record<SeedCategory, T[]>;
}

/**
 * pai-seed writes "1.0.0", hand-written files often "1.0": a version short of three parts gets the
 * missing ones as zeros, so every stored seed has a full semver version.
 */
const seedVersion = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+){0,2}$/, { message: "must be a version such as 1.0.0 (or 1.0)" })
  .transform((v) => [...v.split("."), "0", "0"].slice(0, 3).join("."));

export const seedFileSchema = z.looseObject({
  version: seedVersion,
  identity: identitySchema,
  learned: z.looseObject(learnedShape).default(() => emptyLearned<SeedItem>()),
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

/** The identity fields PUT /api/seed and the dashboard's identity page may set; null removes an optional one. */
export const identityFieldsUpdate = {
  principalName: z.string().trim().min(1).max(MAX_NAME_CHARS).optional(),
  aiName: z.string().trim().min(1).max(MAX_NAME_CHARS).optional(),
  catchphrase: identitySchema.shape.catchphrase.unwrap().nullable().optional(),
  voiceId: identitySchema.shape.voiceId.unwrap().nullable().optional(),
};

/** The preferences they may set, likewise. */
export const preferencesFieldsUpdate = {
  responseStyle: preferencesSchema.shape.responseStyle.unwrap().nullable().optional(),
  timezone: preferencesSchema.shape.timezone.unwrap().nullable().optional(),
  locale: preferencesSchema.shape.locale.unwrap().nullable().optional(),
};

/** PUT /api/seed: identity fields to set; the rest of the identity is kept. */
export const identityUpdateSchema = z.strictObject({
  identity: z.looseObject({ ...identityFieldsUpdate, preferences: z.looseObject(preferencesFieldsUpdate).optional() }),
});

/** Splits an object into the keys a schema knows and the rest. */
export function unknownKeys(value: Record<string, unknown>, known: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !known.includes(k)));
}
