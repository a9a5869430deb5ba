import type { Metadata } from "next";
import Link from "next/link";
import { markdownBudget } from "@/components/markdown/markdown";
import { HandoffEntry } from "@/components/projects/handoff-entry";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorNotice } from "@/components/ui/error-notice";
import { ApiError } from "@/lib/api/errors";
import { requireUser } from "@/lib/auth/session";
import { orNotFound } from "@/lib/dashboard/load-project";
import { one } from "@/lib/dashboard/search-params";
import { listProjectHandoffs } from "@/lib/handoffs/handoffs";
import { handoffListQuerySchema } from "@/lib/handoffs/handoff-schemas";

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata: Metadata = { title: "Handoffs" };

export default async function HandoffsPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { slug } = await params;
  const search = await searchParams;
  const { db, principal } = await requireUser();
  const branch = one(search.branch).trim();
  const cursor = one(search.cursor);
  const base = `/projects/${slug}/handoffs`;
  const parsed = handoffListQuerySchema.safeParse({ branch, cursor: cursor || undefined, limit: 20 });
  if (!parsed.success) return <ErrorNotice message="That is not a branch name." backHref={base} backLabel="All handoffs" />;
  let page;
  try {
    page = await orNotFound(() => listProjectHandoffs(db, principal, slug, parsed.data));
  } catch (error) {
    if (error instanceof ApiError) return <ErrorNotice message={error.message} backHref={base} backLabel="All handoffs" />;
    throw error;
  }
  const now = new Date();
  const budget = markdownBudget();
  const query = new URLSearchParams(branch ? { branch } : {});
  const nextHref = page.nextCursor ? `${base}?${query}${branch ? "&" : ""}cursor=${encodeURIComponent(page.nextCursor)}` : null;
  return (
    <div className="stack">
      <form method="get" action={base} className="filters" aria-label="Filter handoffs">
        <div className="field">
          <label htmlFor="branch">Branch</label>
          <input id="branch" name="branch" defaultValue={branch} placeholder="every branch" />
        </div>
        <button type="submit" className="btn btn-secondary">
          Show
        </button>
        {branch ? <Link href={base}>Every branch</Link> : null}
      </form>
      {page.items.length ? (
        <ol className="timeline" aria-label="Handoffs, newest first">
          {page.items.map((h) => (
            <li key={h.id}>
              <HandoffEntry handoff={h} now={now} budget={budget} />
            </li>
          ))}
        </ol>
      ) : (
        <EmptyState title={branch ? `No handoff on ${branch}.` : "No handoffs yet."}>
          <p>
            A handoff is what a session leaves for the next one. The session-end hook writes it (
            <code>baton hook session-end</code>), or an agent calls the MCP tool <code>write_handoff</code>.
          </p>
        </EmptyState>
      )}
      <nav className="pager" aria-label="Pages">
        {cursor ? <Link href={`${base}${branch ? `?${query}` : ""}`}>Newest</Link> : null}
        {nextHref ? <Link href={nextHref}>Older handoffs →</Link> : null}
      </nav>
    </div>
  );
}
