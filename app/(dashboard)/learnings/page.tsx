import type { Metadata } from "next";
import Link from "next/link";
import { LearningCard, learningView } from "@/components/learnings/learning-card";
import { LearningFilters } from "@/components/learnings/learning-filters";
import { NewLearningForm } from "@/components/learnings/new-learning-form";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorNoticePage } from "@/components/ui/error-notice";
import { PageHeader } from "@/components/ui/page-header";
import { ApiError } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/session";
import { orApiError } from "@/lib/dashboard/or-api-error";
import { one } from "@/lib/dashboard/search-params";
import { listLearnings, type LearningPage } from "@/lib/learnings/learnings";
import { usageOf, type Usage } from "@/lib/learnings/learning-usage";
import { listProjects } from "@/lib/projects/projects";
import { isLearningKind } from "@/lib/rules";

export const metadata: Metadata = { title: "Learnings" };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** A screenful of cards. */
const LEARNINGS_PER_PAGE = 25;

export default async function LearningsPage({ searchParams }: { searchParams: Search }) {
  const { db, principal } = await requireUser();
  const params = await searchParams;
  const q = one(params.q).trim();
  const kindParam = one(params.kind);
  const kind = isLearningKind(kindParam) ? kindParam : undefined;
  const project = one(params.project);
  // Only "true" filters: the link in a context whose pinned learnings overflowed its budget.
  const pinned = one(params.pinned) === "true";
  const cursor = one(params.cursor);
  const projects = await listProjects(db, principal);
  const writable = new Set(projects.filter((p) => p.role !== "viewer").map((p) => p.slug));
  const page = await orApiError(() =>
    listLearnings(db, principal, {
      q: q || undefined,
      kind,
      project: project || undefined,
      pinned: pinned || undefined,
      cursor: cursor || undefined,
      limit: LEARNINGS_PER_PAGE,
    }),
  );
  if (page instanceof ApiError) {
    return <ErrorNoticePage title="Learnings" message={page.message} backHref="/learnings" backLabel="Back to all learnings" />;
  }
  const usage = await usageOf(db, page.items.map((l) => l.id));
  const filters = new URLSearchParams({ ...(q ? { q } : {}), ...(kind ? { kind } : {}), ...(project ? { project } : {}), ...(pinned ? { pinned: "true" } : {}) });
  return (
    <div className="stack-lg">
      <PageHeader title="Learnings">
        What your agents know: personal learnings (yours alone) and your projects&apos; shared ones. Confirmed learnings
        rank first when a context is built; pinned ones are in every context, ahead of the rest; superseded ones stay
        here and in search but are no longer sent to agents.
      </PageHeader>
      <LearningFilters q={q} kind={kind ?? ""} project={project} pinned={pinned} projects={projects.map((p) => ({ slug: p.slug, name: p.name }))} />
      <LearningList page={page} usage={usage} q={q} continued={Boolean(cursor)} filtered={filters.size > 0} writable={writable} />
      <Pager filters={filters} cursor={cursor} nextCursor={page.nextCursor} />
      <section className="card" aria-labelledby="add-learning">
        <h2 id="add-learning">Add a learning</h2>
        <NewLearningForm projects={projects.filter((p) => writable.has(p.slug)).map((p) => ({ slug: p.slug, name: p.name }))} />
      </section>
    </div>
  );
}

type ListProps = { page: LearningPage; usage: Map<string, Usage>; q: string; continued: boolean; filtered: boolean; writable: Set<string> };

/** What the search found, or why there is nothing to show. */
function LearningList({ page, usage, q, continued, filtered, writable }: ListProps) {
  return (
    <>
      <p className="muted" data-testid="learnings-summary">
        {q ? `Best matches for “${q}” first` : "Newest first"}
        {continued ? ", continued" : ""}: {page.items.length} shown.{" "}
        {filtered ? <Link href="/learnings">Clear the search and filters</Link> : null}
      </p>
      {page.items.length ? (
        <div className="stack">
          {page.items.map((l) => (
            <LearningCard key={l.id} learning={learningView(l, usage)} canWrite={l.project === null || writable.has(l.project)} />
          ))}
        </div>
      ) : filtered ? (
        <EmptyState title="No learning matches.">
          <p>Try other words, fewer filters, or <Link href="/learnings">see them all</Link>.</p>
        </EmptyState>
      ) : (
        <EmptyState title="No learnings yet.">
          <p>
            Accept what your agents propose on the <Link href="/proposals">Proposals</Link> page, import a seed.json with{" "}
            <code>baton import</code>, or add one below.
          </p>
        </EmptyState>
      )}
    </>
  );
}

/** Links to the first page (once past it) and the next, keeping the search and filters. */
function Pager({ filters, cursor, nextCursor }: { filters: URLSearchParams; cursor: string; nextCursor: string | null }) {
  const filtered = filters.size > 0;
  const nextHref = nextCursor ? `/learnings?${filters}${filtered ? "&" : ""}cursor=${encodeURIComponent(nextCursor)}` : null;
  return (
    <nav className="pager" aria-label="Pages">
      {cursor ? <Link href={`/learnings${filtered ? `?${filters}` : ""}`}>First page</Link> : null}
      {nextHref ? <Link href={nextHref}>More learnings →</Link> : null}
    </nav>
  );
}
