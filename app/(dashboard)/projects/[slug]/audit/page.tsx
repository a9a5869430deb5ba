import type { Metadata } from "next";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorNotice } from "@/components/ui/error-notice";
import { ApiError } from "@/lib/api/errors";
import { listProjectAudit } from "@/lib/audit/project-audit";
import { requireUser } from "@/lib/auth/session";
import { one } from "@/lib/dashboard/search-params";

type Params = Promise<{ slug: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export const metadata: Metadata = { title: "Audit trail" };

const PAGE_SIZE = 50;

/** The project's audit trail, newest first: who accepted, rejected, edited or deleted what. Owners only. */
export default async function AuditPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { slug } = await params;
  const cursor = one((await searchParams).cursor);
  const { db, principal } = await requireUser();
  const base = `/projects/${slug}/audit`;
  let page;
  try {
    page = await listProjectAudit(db, principal, slug, { limit: PAGE_SIZE, cursor: cursor || undefined });
  } catch (error) {
    if (error instanceof ApiError) {
      const message = error.code === "forbidden" ? "Only the project's owners can see its audit trail." : error.message;
      return <ErrorNotice message={message} backHref={`/projects/${slug}`} backLabel="Back to the project" />;
    }
    throw error;
  }
  if (!page.items.length) {
    return (
      <EmptyState title="Nothing recorded yet.">
        <p>Accepting, rejecting, editing and deleting learnings and proposals, invitations and their answers, and changes to the members, are recorded here.</p>
      </EmptyState>
    );
  }
  return (
    <div className="stack">
      <table className="table table-compact" aria-label="Audit trail, newest first">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Did</th>
            <th scope="col">To</th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((e, i) => (
            <tr key={`${e.at.getTime()}-${i}`}>
              <td>
                <time dateTime={e.at.toISOString()}>{e.at.toISOString().slice(0, 16).replace("T", " ")}</time>
              </td>
              <td title={e.actor.email}>{e.actor.name}</td>
              <td>
                {e.action}
                {e.detail ? <span className="muted"> ({e.detail})</span> : null}
              </td>
              <td>
                {e.subject.kind} <span className="muted">“{e.subject.label}”</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav className="pager" aria-label="Pages">
        {cursor ? <Link href={base}>Newest</Link> : null}
        {page.nextCursor ? <Link href={`${base}?cursor=${encodeURIComponent(page.nextCursor)}`}>Older entries →</Link> : null}
      </nav>
    </div>
  );
}
