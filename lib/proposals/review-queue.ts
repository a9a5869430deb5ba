import { z } from "zod";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { countQueue, DEFAULT_QUEUE_SORT, listQueue, queueSorts, type QueueFilter, type QueueSort } from "../db/queries/proposal-queue";
import type { ProposalRow } from "../db/queries/proposals";
import { cursorPart, decodeCursor } from "../pagination/cursor";
import { fetchPage } from "../pagination/fetch-page";
import { slugSchema } from "../projects/project-schemas";
import { listProjects, requireProject } from "../projects/projects";
import { MAX_REVIEW_PAGE_SIZE, PERSONAL_ONLY, REVIEW_PAGE_SIZE } from "../rules";
import { similarLearnings, type SimilarLearning } from "./similar-learnings";
import { wholeNumber } from "../api/parse-query";

/** The review page's query string. Unknown values fall back to the defaults rather than failing the page. */
export const reviewQueueQuerySchema = z.object({
  sort: z.enum(queueSorts).catch(DEFAULT_QUEUE_SORT),
  /** A project slug, PERSONAL_ONLY, or empty for everything. */
  project: z.union([z.literal(PERSONAL_ONLY), slugSchema]).optional().catch(undefined),
  cursor: z.string().max(500).optional(),
  limit: wholeNumber(1, MAX_REVIEW_PAGE_SIZE).catch(REVIEW_PAGE_SIZE).default(REVIEW_PAGE_SIZE),
});
export type ReviewQueueQuery = z.input<typeof reviewQueueQuerySchema>;

/** `similar`: learnings of its scope that accepting it may supersede (see similar-learnings.ts). */
export type QueueItem = ProposalRow & { canDecide: boolean; similar: SimilarLearning[] };

export type ReviewQueue = {
  items: QueueItem[];
  /** Pending proposals matching the filter, on every page. */
  total: number;
  nextCursor: string | null;
  sort: QueueSort;
  project: string | undefined;
};

/**
 * Pending proposals the user may see, in the order asked for, a page at a time. Each says whether the
 * user may decide it: a viewer of a project sees its proposals but may not accept or reject them.
 */
export async function reviewQueue(db: Db, principal: Principal, query: ReviewQueueQuery): Promise<ReviewQueue> {
  const q = reviewQueueQuerySchema.parse(query);
  const memberships = await listProjects(db, principal);
  const readIds = memberships.map((p) => p.id);
  const writeIds = new Set(memberships.filter((p) => p.role !== "viewer").map((p) => p.id));
  let only: QueueFilter["only"];
  // A link from before PERSONAL_ONLY, `?project=personal`, still means them unless such a project is the user's.
  const personal = q.project === PERSONAL_ONLY || (q.project === "personal" && !memberships.some((p) => p.slug === "personal"));
  if (personal) only = "personal";
  else if (q.project) only = { projectId: (await requireProject(db, principal, q.project)).id };

  const filter: QueueFilter = { userId: principal.userId, projectIds: readIds, only };
  const after = decodeCursor(q.cursor, [cursorPart.fraction, cursorPart.time, cursorPart.id]);
  const [page, total] = await Promise.all([
    fetchPage(q.limit, (limit) => listQueue(db, { ...filter, sort: q.sort, limit, after }), (last) => [last.confidence, last.createdAt.getTime(), last.id]),
    countQueue(db, filter),
  ]);
  // Only where the reader may decide: superseding happens on accept, and a viewer cannot accept.
  const decidable = page.items.filter((row) => row.projectId === null || writeIds.has(row.projectId));
  const found = await similarLearnings(db, decidable);
  const similar = new Map(decidable.map((row, i) => [row.id, found[i]!]));
  return {
    items: page.items.map((row) => ({ ...row, canDecide: similar.has(row.id), similar: similar.get(row.id) ?? [] })),
    total,
    nextCursor: page.nextCursor,
    sort: q.sort,
    project: q.project,
  };
}
