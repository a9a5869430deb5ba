import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import type { MemberProject } from "../db/queries/projects";
import { contextServedByDay, type ServedDay } from "../db/queries/context-stats";
import { countQueue, DEFAULT_QUEUE_SORT, listQueue } from "../db/queries/proposal-queue";
import type { ProposalRow } from "../db/queries/proposals";
import { countSessionsByStatus } from "../db/queries/session-counts";
import type { SessionDocView } from "../db/queries/sessions";
import { listProjectHandoffs, type ProjectHandoff } from "../handoffs/handoffs";
import { listSessions } from "../sessions/sessions";
import { requireProject } from "./projects";

export const SERVED_DAYS = 30;

export type ProjectOverview = {
  project: MemberProject;
  handoffs: ProjectHandoff[];
  proposals: { items: ProposalRow[]; total: number };
  sessions: { queued: SessionDocView[]; counts: Record<SessionDocView["status"], number> };
  /** One entry per UTC day of the last SERVED_DAYS, oldest first, zeros included. */
  served: ServedDay[];
};

/** What a project's front page shows: the latest handoffs, what waits for review, the queue, and context served. */
export async function projectOverview(db: Db, principal: Principal, slug: string, now = new Date()): Promise<ProjectOverview> {
  const project = await requireProject(db, principal, slug, "read");
  const filter = { userId: principal.userId, projectIds: [project.id], only: { projectId: project.id } };
  const since = startOfUtcDay(new Date(now.getTime() - (SERVED_DAYS - 1) * 86_400_000));
  const [handoffs, proposalItems, proposalTotal, queued, counts, served] = await Promise.all([
    listProjectHandoffs(db, principal, slug, { limit: 3 }),
    listQueue(db, { ...filter, sort: DEFAULT_QUEUE_SORT, limit: 5 }),
    countQueue(db, filter),
    listSessions(db, principal, slug, { status: "todo", limit: 5 }),
    countSessionsByStatus(db, { projectId: project.id }),
    contextServedByDay(db, { userId: principal.userId, projectId: project.id, since }),
  ]);
  return {
    project,
    handoffs: handoffs.items,
    proposals: { items: proposalItems, total: proposalTotal },
    sessions: { queued: queued.items, counts },
    served: fillDays(served, since, SERVED_DAYS),
  };
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** Every day in the range, with zeros for days nothing was served, so the chart's x axis is time. */
export function fillDays(rows: ServedDay[], since: Date, days: number): ServedDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, contexts: 0, tokens: 0 };
  });
}
