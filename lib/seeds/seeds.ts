import { ApiError } from "../api/errors";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { insertLearningsIfNew, listPersonalLearnings, type LearningRow, type NewLearningRow } from "../db/queries/learnings";
import { insertProposalsIfNew, listPersonalProposals, type NewProposalRow, type ProposalRow } from "../db/queries/proposals";
import { findSeed, upsertSeed } from "../db/queries/seeds";
import { KIND_INFO, KIND_OF_SEED_CATEGORY, SEED_CATEGORIES } from "../rules";
import { emptyLearned, identityUpdateSchema, seedFileSchema, unknownKeys, type SeedItem, type SeedProposal } from "./seed-file";

const ITEM_KEYS = ["id", "content", "source", "extractedAt", "confirmedAt", "confirmed", "tags", "pinned", "supersededAt"] as const;
const PROPOSAL_KEYS = ["id", "type", "content", "source", "extractedAt", "status", "method", "confidence", "decidedAt"] as const;

export type ImportSummary = { learningsAdded: number; learningsSkipped: number; proposalsAdded: number; proposalsSkipped: number };

/**
 * Imports a pai-seed seed.json for the user: identity and state replace the stored ones, learned items
 * and proposals are added unless already imported (matched by their seed.json id), so importing the
 * same file twice adds nothing. All or nothing: a malformed file is a 400 naming the field, and a
 * failure midway rolls everything back.
 */
export async function importSeed(db: Db, principal: Principal, input: unknown): Promise<ImportSummary> {
  const file = seedFileSchema.parse(input);
  const userId = principal.userId;
  const learningRows: NewLearningRow[] = [];
  for (const category of SEED_CATEGORIES) {
    for (const item of file.learned[category]) learningRows.push(learningFromItem(userId, KIND_OF_SEED_CATEGORY[category], item));
  }
  const proposalRows = file.state.proposals.map((p) => proposalFromSeed(userId, p));
  const state = unknownKeys(file.state, ["proposals"]);
  const rootExtra = unknownKeys(file, ["version", "identity", "learned", "state"]);
  const { version, identity, learned } = file;

  return db.transaction(async (tx) => {
    await upsertSeed(tx, {
      userId,
      version,
      identity,
      state,
      extra: { root: rootExtra, learned: unknownKeys(learned, SEED_CATEGORIES) },
    });
    const learningsAdded = await insertLearningsIfNew(tx, learningRows);
    const proposalsAdded = await insertProposalsIfNew(tx, proposalRows);
    return {
      learningsAdded,
      learningsSkipped: learningRows.length - learningsAdded,
      proposalsAdded,
      proposalsSkipped: proposalRows.length - proposalsAdded,
    };
  });
}

function learningFromItem(userId: string, kind: NewLearningRow["kind"], item: SeedItem): NewLearningRow {
  const extra = unknownKeys(item, ITEM_KEYS);
  return {
    id: crypto.randomUUID(),
    userId,
    projectId: null,
    kind,
    content: item.content,
    source: item.source,
    confirmed: item.confirmed,
    pinned: item.pinned,
    // What superseded it is not in the file (its id is another store's): the mark alone comes back.
    supersededAt: item.supersededAt ? new Date(item.supersededAt) : null,
    tags: item.tags,
    createdAt: item.extractedAt ? new Date(item.extractedAt) : undefined,
    confirmedAt: item.confirmedAt ? new Date(item.confirmedAt) : null,
    externalId: item.id,
    extra: Object.keys(extra).length ? extra : null,
  };
}

function proposalFromSeed(userId: string, p: SeedProposal): NewProposalRow {
  const extra = unknownKeys(p, PROPOSAL_KEYS);
  return {
    id: crypto.randomUUID(),
    userId,
    projectId: null,
    kind: p.type,
    content: p.content,
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
