import { z } from "zod";
import { isoDate, isoDateOrNull } from "../api/zod-fields";
import { slugSchema } from "../projects/project-schemas";
import { provenanceOf } from "./provenance";
import { MAX_NAMED_FILES } from "./named-files";
import { flagOf } from "./learning-usage";

/** A file path as a learning keeps it. */
const MAX_FILE_CHARS = 300;
import type { LearningRow } from "../db/queries/learnings";
import { AGENT_NAMES, FLAG_REASONS, DEFAULT_PAGE_SIZE, LEARNING_KINDS, LEARNING_ORIGINS, MAX_CONTENT_CHARS, MAX_PAGE_SIZE, MAX_QUERY_CHARS, MAX_SOURCE_CHARS, MAX_TAG_CHARS, MAX_TAGS, SOURCE_DEFAULTS } from "../rules";
import { wholeNumber } from "../api/parse-query";

export const tagsSchema = z.array(z.string().trim().min(1).max(MAX_TAG_CHARS)).max(MAX_TAGS);
export const contentSchema = z.string().trim().min(1, { message: "Content is empty." }).max(MAX_CONTENT_CHARS);

export const newLearningSchema = z.strictObject({
  kind: z.enum(LEARNING_KINDS),
  content: contentSchema,
  project: slugSchema.nullish(),
  tags: tagsSchema.default([]),
  source: z.string().trim().min(1).max(MAX_SOURCE_CHARS).default(SOURCE_DEFAULTS.typed),
  confirmed: z.boolean().default(false),
  pinned: z.boolean().default(false),
  createdAt: z.iso.datetime({ offset: true }).optional(),
});

export const learningPatchSchema = z
  .strictObject({
    kind: z.enum(LEARNING_KINDS).optional(),
    content: contentSchema.optional(),
    tags: tagsSchema.optional(),
    confirmed: z.boolean().optional(),
    pinned: z.boolean().optional(),
    /** Only false: a learning is superseded by accepting a proposal in its place, and un-superseded here. */
    superseded: z
      .literal(false, { message: "superseded can only be set to false here; a learning is superseded by accepting a proposal with supersedes." })
      .optional(),
    /** Only false: a flag is raised by a session's end (issue 27) and cleared here. */
    flagged: z.literal(false, { message: "flagged can only be set to false here; a learning is flagged by a later session's end." }).optional(),
    /** The files it names, given by hand: replaces those found in its text and evidence. */
    files: z.array(z.string().trim().min(1).max(MAX_FILE_CHARS)).max(MAX_NAMED_FILES).optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "Send at least one of kind, content, tags, confirmed, pinned, superseded, flagged, files." });

export const learningQuerySchema = z.object({
  q: z.string().max(MAX_QUERY_CHARS).optional(),
  kind: z.enum(LEARNING_KINDS).optional(),
  project: slugSchema.optional(),
  /** Only pinned or only unpinned ones: "true" | "false" in a query string. */
  pinned: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]).optional(),
  limit: wholeNumber(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(500).optional(),
});

export const learningOutSchema = z.object({
  id: z.string(),
  kind: z.enum(LEARNING_KINDS),
  content: z.string(),
  source: z.string(),
  confirmed: z.boolean(),
  confirmedAt: isoDateOrNull,
  tags: z.array(z.string()),
  project: z.string().nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  lastInjectedAt: isoDateOrNull,
  pinned: z.boolean(),
  /** Set when a newer learning replaced it: still listed and searchable, never injected. */
  supersededAt: isoDateOrNull,
  supersededBy: z.string().nullable(),
  // No search score: FTS5's bm25() weighs words by every learning in the store, so the number would
  // tell a reader how many of other people's learnings hold a word. The order of a search is the answer.
  /** The files it names (issue 27): from its text, its proposal's evidence, or given by hand. */
  files: z.array(z.string()),
  /** Why a later session put it in doubt, while it is flagged. */
  flag: z.object({ at: isoDate, reason: z.enum(FLAG_REASONS), file: z.string().nullable(), session: z.string().nullable() }).nullable(),
  /** Where it came from (lib/learnings/provenance.ts), built from the row's columns. */
  provenance: z.object({
    origin: z.enum(LEARNING_ORIGINS),
    by: z.string().nullable(),
    agent: z.enum(AGENT_NAMES).nullable(),
    model: z.string().nullable(),
    session: z.string().nullable(),
    proposalId: z.string().nullable(),
    acceptedBy: z.string().nullable(),
    acceptedAt: isoDateOrNull,
    editedBy: z.string().nullable(),
    editedAt: isoDateOrNull,
  }),
});

/** A learning as the API and MCP give it out. */
export function learningOut(l: LearningRow): z.output<typeof learningOutSchema> {
  return learningOutSchema.parse({ ...l, flag: flagOf(l), provenance: provenanceOf(l) });
}
