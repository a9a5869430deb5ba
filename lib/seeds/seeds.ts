import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { countKnownLearningIds, countUserLearnings } from "../db/queries/learning-counts";
import { insertLearningsIfNew, listPersonalLearnings, type LearningRow, type NewLearningRow } from "../db/queries/learnings";
import { insertProposalsIfNew, listPersonalProposals, type NewProposalRow, type ProposalRow } from "../db/queries/proposals";
import { findSeed, upsertSeed } from "../db/queries/seeds";
import { withholdSecrets } from "../secrets/withhold-secrets";
import { KIND_INFO, KIND_OF_SEED_CATEGORY, MAX_IMPORT_ROWS, MAX_LEARNINGS_PER_USER, SEED_CATEGORIES, type LearningKind, type SeedCategory } from "../rules";
import { z } from "zod";
import { emptyLearned, identityUpdateSchema, seedFileSchema, seedItemSchema, seedProposalSchema, unknownKeys, type SeedFile, type SeedItem, type SeedProposal } from "./seed-file";

const ITEM_KEYS = ["id", "content", "source", "extractedAt", "confirmedAt", "confirmed", "tags", "pinned", "supersededAt"] as const;
const PROPOSAL_KEYS = ["id", "type", "content", "source", "extractedAt", "status", "method", "confidence", "decidedAt"] as const;

export type ImportSummary = { learningsAdded: number; learningsSkipped: number; proposalsAdded: number; proposalsSkipped: number };

/**
 * Rows validated and written per step. One statement holds the database's write lock (and, on an
 * embedded database, this thread) from start to end. With the full-text, count and version triggers,
 * a 190,000-row import in steps of 250 held the thread p50 97 ms, p99 321 ms, at most 597 ms between
 * turns on a 2-core machine under heavy load (500 rows: p99 1.4 s), so other users' writes wait well
 * under a second (bench/import-load.ts). 250 rows bind ~5,000 parameters, far below SQLite's cap.
 */
const IMPORT_BATCH_ROWS = 250;

/**
 * Imports a pai-seed seed.json for the user: identity and state replace the stored ones, learned items
 * and proposals are added unless already imported (matched by their seed.json id), so importing the
 * same file twice adds nothing. A malformed file (a 400 naming the field), one over MAX_IMPORT_ROWS or
 * one that would take the user past MAX_LEARNINGS_PER_USER (413) is refused before anything is
 * written. The rows then go in IMPORT_BATCH_ROWS at a time, each batch one statement of its own, so
 * other users' writes get the database between batches; a failure midway keeps the batches written,
 * and running the same import again finishes it (each batch skips the ids already there).
 */
export async function importSeed(db: Db, principal: Principal, input: unknown): Promise<ImportSummary> {
  refuseOverRowLimit(input);
  const file = await parseSeedFile(input);
  const userId = principal.userId;
  const learned = seedItems(file);
  await refuseOverCap(db, userId, learned);
  const { version, identity } = file;
  await upsertSeed(db, {
    userId,
    version,
    identity,
    state: unknownKeys(file.state, ["proposals"]),
    extra: { root: unknownKeys(file, ["version", "identity", "learned", "state"]), learned: unknownKeys(file.learned, SEED_CATEGORIES) },
  });
  let learningsAdded = 0;
  for (const batch of batches(learned)) {
    learningsAdded += await insertLearningsIfNew(db, batch.map(({ kind, item }) => learningFromItem(userId, kind, item)));
    await otherRequestsFirst();
  }
  let proposalsAdded = 0;
  for (const batch of batches(file.state.proposals)) {
    proposalsAdded += await insertProposalsIfNew(db, batch.map((p) => proposalFromSeed(userId, p)));
    await otherRequestsFirst();
  }
  return {
    learningsAdded,
    learningsSkipped: learned.length - learningsAdded,
    proposalsAdded,
    proposalsSkipped: file.state.proposals.length - proposalsAdded,
  };
}

/**
 * seedFileSchema.parse, a chunk of items at a time: the envelope (version, identity, state) first, then
 * each list IMPORT_BATCH_ROWS items at a time with a turn for other requests between chunks, as
 * validating 190,000 items in one go keeps this thread from everyone else for seconds. Errors name
 * the item's place in the file (learned.insights.1234.content), as one parse would.
 */
async function parseSeedFile(input: unknown): Promise<SeedFile> {
  const raw = record(input);
  const learned = record(raw.learned);
  const state = record(raw.state);
  // Lists that are arrays are validated below; anything else is left for the envelope to refuse.
  const lists = (value: Record<string, unknown>, keys: readonly string[]) =>
    Object.fromEntries(keys.filter((k) => Array.isArray(value[k])).map((k) => [k, value[k] as unknown[]]));
  const learnedLists = lists(learned, SEED_CATEGORIES);
  const proposalList = lists(state, ["proposals"]).proposals;
  const envelope = seedFileSchema.parse({
    ...raw,
    ...(raw.learned !== undefined ? { learned: { ...learned, ...Object.fromEntries(Object.keys(learnedLists).map((k) => [k, []])) } } : {}),
    ...(raw.state !== undefined ? { state: { ...state, ...(proposalList ? { proposals: [] } : {}) } } : {}),
  });
  for (const [category, items] of Object.entries(learnedLists)) {
    envelope.learned[category as SeedCategory] = await parseInChunks(seedItemSchema, items, ["learned", category]);
  }
  if (proposalList) envelope.state.proposals = await parseInChunks(seedProposalSchema, proposalList, ["state", "proposals"]);
  return envelope;
}

async function parseInChunks<S extends z.ZodType>(schema: S, items: unknown[], at: (string | number)[]): Promise<z.output<S>[]> {
  const parsed: z.output<S>[] = [];
  for (let i = 0; i < items.length; i += IMPORT_BATCH_ROWS) {
    const result = z.array(schema).safeParse(items.slice(i, i + IMPORT_BATCH_ROWS));
    if (!result.success) {
      throw new z.ZodError(result.error.issues.map((issue) => ({ ...issue, path: [...at, i + Number(issue.path[0]), ...issue.path.slice(1)] })));
    }
    parsed.push(...result.data);
    await otherRequestsFirst();
  }
  return parsed;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The file's learned items with their kind, in file order (references into the parsed file, no copies). */
function seedItems(file: SeedFile): { kind: LearningKind; item: SeedItem }[] {
  return SEED_CATEGORIES.flatMap((category) => file.learned[category].map((item) => ({ kind: KIND_OF_SEED_CATEGORY[category], item })));
}

function* batches<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += IMPORT_BATCH_ROWS) yield items.slice(i, i + IMPORT_BATCH_ROWS);
}

/**
 * Lets the requests that arrived during a batch run before the next one: an embedded database runs a
 * statement synchronously on this thread, so without a turn of the event loop they would wait for
 * the whole import.
 */
function otherRequestsFirst(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Counted on the raw body, before the schema copies a single item: an oversized file costs no parse. */
function refuseOverRowLimit(input: unknown): void {
  const length = (value: unknown) => (Array.isArray(value) ? value.length : 0);
  const learned = record(record(input).learned);
  const rows = SEED_CATEGORIES.reduce((n, category) => n + length(learned[category]), 0) + length(record(record(input).state).proposals);
  if (rows > MAX_IMPORT_ROWS) {
    throw new ApiError(
      "payload_too_large",
      `The seed has ${rows} learned items and proposals; one import takes at most ${MAX_IMPORT_ROWS}. Nothing was imported: split the file (baton import does so by itself).`,
    );
  }
}

/**
 * Refuses an import whose new learnings would take the user past MAX_LEARNINGS_PER_USER. Items the user
 * already has (a repeated import) are not new: they are looked up only when the plain sum is over.
 */
async function refuseOverCap(db: Db, userId: string, learned: { item: SeedItem }[]): Promise<void> {
  const stored = await countUserLearnings(db, { userId });
  if (stored + learned.length <= MAX_LEARNINGS_PER_USER) return;
  const ids = [...new Set(learned.map(({ item }) => item.id))];
  let known = 0;
  for (let i = 0; i < ids.length; i += IMPORT_BATCH_ROWS) {
    known += await countKnownLearningIds(db, { userId, externalIds: ids.slice(i, i + IMPORT_BATCH_ROWS) });
  }
  const adding = ids.length - known;
  if (stored + adding > MAX_LEARNINGS_PER_USER) {
    throw new ApiError(
      "payload_too_large",
      `You have ${stored} learnings and this seed would add ${adding}; a user may hold at most ${MAX_LEARNINGS_PER_USER}. Nothing was imported.`,
    );
  }
}

function learningFromItem(userId: string, kind: NewLearningRow["kind"], item: SeedItem): NewLearningRow {
  const extra = unknownKeys(item, ITEM_KEYS);
  return {
    id: crypto.randomUUID(),
    userId,
    projectId: null,
    kind,
    // Secrets are withheld here as on every other way in (lib/secrets/withhold-secrets.ts); items match by id, so a re-import adds nothing.
    content: withholdSecrets(item.content),
    source: item.source,
    confirmed: item.confirmed,
    pinned: item.pinned,
    // What superseded it is not in the file (its id is another store's): the mark alone comes back.
    supersededAt: item.supersededAt ? new Date(item.supersededAt) : null,
    tags: withholdSecrets(item.tags),
    createdAt: item.extractedAt ? new Date(item.extractedAt) : undefined,
    confirmedAt: item.confirmedAt ? new Date(item.confirmedAt) : null,
    externalId: item.id,
    extra: Object.keys(extra).length ? extra : null,
    origin: "import",
  };
}

function proposalFromSeed(userId: string, p: SeedProposal): NewProposalRow {
  const extra = unknownKeys(p, PROPOSAL_KEYS);
  return {
    id: crypto.randomUUID(),
    userId,
    projectId: null,
    kind: p.type,
    content: withholdSecrets(p.content),
    source: p.source,
    confidence: p.confidence ?? 0.5,
    status: p.status,
    method: p.method ?? null,
    externalId: p.id,
    extra: Object.keys(extra).length ? extra : null,
    createdAt: p.extractedAt ? new Date(p.extractedAt) : undefined,
    decidedAt: p.decidedAt ? new Date(p.decidedAt) : null,
  };
}

/** The user's seed in seed.json's shape: what an import took in, unknown keys included, plus what Baton learned since. */
export async function exportSeed(db: Db, principal: Principal): Promise<Record<string, unknown>> {
  const seed = await findSeed(db, { userId: principal.userId });
  if (!seed) throw new ApiError("not_found", "No seed yet: set one with PUT /api/seed or POST /api/seed/import.");
  const [learnings, proposals] = await Promise.all([
    listPersonalLearnings(db, { userId: principal.userId }),
    listPersonalProposals(db, { userId: principal.userId }),
  ]);
  const extra = seed.extra as { root?: Record<string, unknown>; learned?: Record<string, unknown> };
  const learned = emptyLearned<Record<string, unknown>>();
  for (const l of learnings) learned[KIND_INFO[l.kind].seedCategory].push(itemFromLearning(l));
  return {
    ...extra.root,
    version: seed.version,
    identity: seed.identity,
    learned: { ...extra.learned, ...learned },
    state: { ...seed.state, proposals: proposals.map(seedProposalFromRow) },
  };
}

function itemFromLearning(l: LearningRow): Record<string, unknown> {
  return {
    ...l.extra,
    id: l.externalId ?? l.id,
    content: l.content,
    source: l.source,
    extractedAt: l.createdAt.toISOString(),
    ...(l.confirmedAt ? { confirmedAt: l.confirmedAt.toISOString() } : {}),
    confirmed: l.confirmed,
    tags: l.tags,
    // Only when set: a file that never had the key gets none back.
    ...(l.pinned ? { pinned: true } : {}),
    ...(l.supersededAt ? { supersededAt: l.supersededAt.toISOString() } : {}),
  };
}

function seedProposalFromRow(p: ProposalRow): Record<string, unknown> {
  return {
    ...p.extra,
    id: p.externalId ?? p.id,
    type: p.kind,
    content: p.content,
    source: p.source,
    extractedAt: p.createdAt.toISOString(),
    status: p.status,
    ...(p.method ? { method: p.method } : {}),
    confidence: p.confidence,
    ...(p.decidedAt ? { decidedAt: p.decidedAt.toISOString() } : {}),
  };
}

/** The user's seed identity as stored (unknown keys included), or null before any seed exists. */
export async function getIdentity(db: Db, principal: Principal): Promise<Record<string, unknown> | null> {
  const seed = await findSeed(db, { userId: principal.userId });
  return seed ? (seed.identity as Record<string, unknown>) : null;
}

/** An object with its null-valued keys removed: null in an update means "remove this field". */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

/**
 * Sets identity fields (the others are kept; a null removes an optional one); creating a seed needs at
 * least aiName and principalName.
 */
export async function updateIdentity(db: Db, principal: Principal, input: unknown): Promise<Record<string, unknown>> {
  const { identity: changes } = identityUpdateSchema.parse(input);
  await db.transaction(async (tx) => {
    const seed = await findSeed(tx, { userId: principal.userId });
    const current = (seed?.identity ?? {}) as Record<string, unknown>;
    const identity = withoutNulls({ ...current, ...changes, preferences: current.preferences ?? null });
    if (changes.preferences) {
      const preferences = withoutNulls({ ...(current.preferences as object | undefined), ...changes.preferences });
      if (Object.keys(preferences).length) identity.preferences = preferences;
      else delete identity.preferences;
    }
    if (!identity.aiName || !identity.principalName) {
      throw new ApiError("validation_failed", "A new seed needs identity.aiName and identity.principalName.", [
        { path: ["identity", identity.aiName ? "principalName" : "aiName"], message: "Required for a new seed.", code: "invalid_type" },
      ]);
    }
    await upsertSeed(tx, {
      userId: principal.userId,
      version: seed?.version ?? "1.0.0",
      identity,
      state: seed?.state ?? { activeProjects: [] },
      extra: seed?.extra ?? {},
    });
  });
  return exportSeed(db, principal);
}
