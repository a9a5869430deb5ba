import type { Metadata } from "next";
import Link from "next/link";
import { KeyboardHelp } from "@/components/proposals/keyboard-help";
import { PendingCount, PendingCountProvider } from "@/components/proposals/pending-count";
import { QueueFilters } from "@/components/proposals/queue-filters";
import type { QueueEntry } from "@/components/proposals/queue-types";
import { ReviewQueue } from "@/components/proposals/review-queue";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorNoticePage } from "@/components/ui/error-notice";
import { PageHeader } from "@/components/ui/page-header";
import { producedByLabel } from "@/lib/agents/produced-by";
import { ApiError } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/session";
import { relativeTime } from "@/lib/context/pack/relative-time";
import { orApiError } from "@/lib/dashboard/or-api-error";
import { one } from "@/lib/dashboard/search-params";
import { listProjects } from "@/lib/projects/projects";
import { reviewQueue, type ReviewQueue as Queue, type ReviewQueueQuery } from "@/lib/proposals/review-queue";
import { LESSON_LABELS, PROPOSAL_METHOD_LABELS } from "@/lib/rules";

export const metadata: Metadata = { title: "Proposals" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function ProposalsPage({ searchParams }: { searchParams: Search }) {
  const { db, principal } = await requireUser();
  const params = await searchParams;
  const query = { sort: one(params.sort) as ReviewQueueQuery["sort"], project: one(params.project) || undefined, cursor: one(params.cursor) || undefined };
  const projects = await listProjects(db, principal);
  const queue = await orApiError(() => reviewQueue(db, principal, query));
  if (queue instanceof ApiError) {
    return <ErrorNoticePage title="Proposals" message={queue.message} backHref="/proposals" backLabel="Back to all pending proposals" />;
  }
  return (
    <PendingCountProvider total={queue.total}>
      <div className="stack-lg">
        <PageHeader title="Proposals">
          Learnings your agents proposed, waiting for a decision. An accepted proposal becomes a confirmed learning that
          agents receive at session start. <PendingCount /> pending.
        </PageHeader>
        <QueueFilters sort={queue.sort} project={queue.project} projects={projects.map((p) => ({ slug: p.slug, name: p.name }))} />
        <QueuePage queue={queue} cursor={query.cursor} />
      </div>
    </PendingCountProvider>
  );
}

/** One page of the queue with its pager, or what to do when nothing waits. */
function QueuePage({ queue, cursor }: { queue: Queue; cursor: string | undefined }) {
  const entries = queueEntries(queue, new Date());
  const base = new URLSearchParams({ sort: queue.sort, ...(queue.project ? { project: queue.project } : {}) });
  const nextHref = queue.nextCursor ? `/proposals?${base}&cursor=${encodeURIComponent(queue.nextCursor)}` : null;
  if (!entries.length) {
    return (
      <EmptyState title={cursor ? "No more pending proposals here." : "Nothing to review."}>
        <p>
          Agents propose learnings at session end (<code>baton hook session-end</code>) and mid-session through the MCP tool{" "}
          <code>propose_learning</code>. Connect an agent in <Link href="/settings/connect">Settings → Connect</Link>; its
          proposals show up here.
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <KeyboardHelp />
      {/* A fresh queue (and its undo history) per page and filter. */}
      <ReviewQueue key={`${base}|${cursor ?? ""}`} entries={entries} nextHref={nextHref} />
      <nav className="pager" aria-label="Pages">
        {cursor ? <Link href={`/proposals?${base}`}>First page</Link> : null}
        {nextHref ? <Link href={nextHref}>Next {entries.length} →</Link> : <span className="muted">End of the queue.</span>}
      </nav>
    </>
  );
}

/** What the browser gets of each proposal: plain and serialisable, its age worded on the server. */
function queueEntries(queue: Queue, now: Date): QueueEntry[] {
  return queue.items.map((p) => ({
    id: p.id,
    kind: p.kind,
    content: p.content,
    source: p.source,
    producedBy: producedByLabel(p),
    foundBy: p.method === "agent" || p.method === "model" ? { method: p.method, label: PROPOSAL_METHOD_LABELS[p.method]! } : null,
    lesson: p.lesson ? LESSON_LABELS[p.lesson] : null,
    evidence: (p.evidence ?? []).map((line) => ({ ...line, time: line.at ? clockTime(line.at) : null })),
    confidence: p.confidence,
    mergedCount: p.mergedCount,
    project: p.project,
    createdAt: p.createdAt.toISOString(),
    age: relativeTime(p.createdAt, now),
    canDecide: p.canDecide,
    similar: p.similar,
  }));
}

/** An evidence line's time of day in UTC ("10:04 UTC"): the lines of one session are minutes apart. */
function clockTime(at: string): string | null {
  const time = new Date(at);
  return Number.isNaN(time.getTime()) ? null : `${time.toISOString().slice(11, 16)} UTC`;
}
