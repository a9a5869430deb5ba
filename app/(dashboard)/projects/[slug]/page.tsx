import type { Metadata } from "next";
import Link from "next/link";
import { BarChart } from "@/components/charts/bar-chart";
import { HandoffEntry } from "@/components/projects/handoff-entry";
import { Stat } from "@/components/projects/stat";
import { EmptyState } from "@/components/ui/empty-state";
import { KindBadge } from "@/components/ui/kind-badge";
import { requireUser } from "@/lib/auth/session";
import { orNotFound } from "@/lib/dashboard/load-project";
import { projectOverview, SERVED_DAYS } from "@/lib/projects/project-overview";

type Params = Promise<{ slug: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: (await params).slug };
}

export default async function ProjectOverviewPage({ params }: { params: Params }) {
  const { slug } = await params;
  const { db, principal } = await requireUser();
  const now = new Date();
  const o = await orNotFound(() => projectOverview(db, principal, slug, now));
  const contexts = o.served.reduce((n, d) => n + d.contexts, 0);
  const tokens = o.served.reduce((n, d) => n + d.tokens, 0);
  const day = (iso: string) => iso.slice(5);
  const base = `/projects/${slug}`;
  return (
    <div className="stack-lg">
      <div className="stats">
        <Stat label="pending proposals" value={o.proposals.total} href={`/proposals?project=${slug}`} testId="stat-proposals" />
        <Stat label="queued sessions" value={o.sessions.counts.todo} href={`${base}/sessions`} testId="stat-queued" />
        <Stat label="sessions in progress" value={o.sessions.counts.doing} href={`${base}/sessions`} testId="stat-doing" />
        <Stat label={`contexts served, ${SERVED_DAYS} days`} value={contexts} testId="stat-contexts" />
        <Stat label={`tokens served, ${SERVED_DAYS} days`} value={tokens} testId="stat-tokens" />
      </div>

      <section className="card stack" aria-labelledby="served">
        <h2 id="served">Context served</h2>
        {contexts ? (
          <div className="grid-2">
            <BarChart id="chart-contexts" title="Contexts served per day (UTC)" unit="contexts" bars={o.served.map((d) => ({ label: day(d.day), value: d.contexts }))} />
            <BarChart id="chart-tokens" title="Tokens served per day (UTC)" unit="tokens" bars={o.served.map((d) => ({ label: day(d.day), value: d.tokens }))} />
          </div>
        ) : (
          <EmptyState title={`No context served in the last ${SERVED_DAYS} days.`}>
            <p>
              Install the session-start hook in the repository (<code>npx baton install claude</code>, or the snippets in{" "}
              <Link href="/settings/connect">Settings → Connect</Link>); every session start then shows up here.
            </p>
          </EmptyState>
        )}
      </section>

      <div className="grid-2">
        <section className="stack" aria-labelledby="latest-handoffs">
          <div className="section-head">
            <h2 id="latest-handoffs">Latest handoffs</h2>
            {o.handoffs.length ? <Link href={`${base}/handoffs`}>All handoffs →</Link> : null}
          </div>
          {o.handoffs.length ? (
            o.handoffs.map((h) => <HandoffEntry key={h.id} handoff={h} now={now} clamp />)
          ) : (
            <EmptyState title="No handoffs yet.">
              <p>
                The session-end hook (<code>baton hook session-end</code>) leaves one when a session ends; the next session,
                anyone&apos;s, starts from it.
              </p>
            </EmptyState>
          )}
        </section>

        <div className="stack-lg">
          <section className="stack" aria-labelledby="pending">
            <div className="section-head">
              <h2 id="pending">Pending proposals</h2>
              {o.proposals.total ? <Link href={`/proposals?project=${slug}`}>Review {o.proposals.total.toLocaleString("en")} →</Link> : null}
            </div>
            {o.proposals.items.length ? (
              <ul className="plain-list">
                {o.proposals.items.map((p) => (
                  <li key={p.id}>
                    <KindBadge kind={p.kind} /> {p.content} <span className="muted">({p.confidence.toFixed(2)})</span>
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState title="Nothing waits for review.">
                <p>Agents propose learnings for this project at session end; they queue up here.</p>
              </EmptyState>
            )}
          </section>

          <section className="stack" aria-labelledby="queued">
            <div className="section-head">
              <h2 id="queued">Queued sessions</h2>
              <Link href={`${base}/sessions`}>Session board →</Link>
            </div>
            {o.sessions.queued.length ? (
              <ul className="plain-list">
                {o.sessions.queued.map((s) => (
                  <li key={s.id}>
                    <code>{s.id}</code> {s.branch ? <span className="muted">on {s.branch}</span> : null}
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState title="The queue is empty.">
                <p>
                  Queue a unit of work with <code>baton handoff new --spec … --file …</code>; an agent picks it up with{" "}
                  <code>baton pickup</code>.
                </p>
              </EmptyState>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
