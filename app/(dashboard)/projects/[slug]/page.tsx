import type { Metadata } from "next";
import Link from "next/link";
import { BarChart } from "@/components/charts/bar-chart";
import { markdownBudget } from "@/components/markdown/markdown";
import { HandoffEntry } from "@/components/projects/handoff-entry";
import { Stat } from "@/components/projects/stat";
import { EmptyState } from "@/components/ui/empty-state";
import { KindBadge } from "@/components/ui/kind-badge";
import { Panel } from "@/components/ui/panel";
import { requireUser } from "@/lib/auth/session";
import { orNotFound } from "@/lib/dashboard/load-project";
import { projectOverview, SERVED_DAYS } from "@/lib/projects/project-overview";

type Params = Promise<{ slug: string }>;
type Overview = Awaited<ReturnType<typeof projectOverview>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: (await params).slug };
}

export default async function ProjectOverviewPage({ params }: { params: Params }) {
  const { slug } = await params;
  const { db, principal } = await requireUser();
  const now = new Date();
  const budget = markdownBudget();
  const o = await orNotFound(() => projectOverview(db, principal, slug, now));
  const contexts = o.served.reduce((n, d) => n + d.contexts, 0);
  const tokens = o.served.reduce((n, d) => n + d.tokens, 0);
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
      <Served served={o.served} contexts={contexts} />
      <div className="grid-2">
        <Panel id="latest-handoffs" title="Latest handoffs" more={o.handoffs.length ? <Link href={`${base}/handoffs`}>All handoffs →</Link> : null}>
          {o.handoffs.length ? (
            o.handoffs.map((h) => <HandoffEntry key={h.id} handoff={h} now={now} budget={budget} clamp />)
          ) : (
            <EmptyState title="No handoffs yet.">
              <p>
                The session-end hook (<code>baton hook session-end</code>) leaves one when a session ends; the next session,
                anyone&apos;s, starts from it.
              </p>
            </EmptyState>
          )}
        </Panel>
        <div className="stack-lg">
          <PendingProposals slug={slug} proposals={o.proposals} />
          <QueuedSessions base={base} queued={o.sessions.queued} />
        </div>
      </div>
    </div>
  );
}

/** Contexts and tokens served per day, or how to start serving them. */
function Served({ served, contexts }: { served: Overview["served"]; contexts: number }) {
  const day = (iso: string) => iso.slice(5);
  return (
    <section className="card stack" aria-labelledby="served">
      <h2 id="served">Context served</h2>
      {contexts ? (
        <div className="grid-2">
          <BarChart id="chart-contexts" title="Contexts served per day (UTC)" unit="contexts" bars={served.map((d) => ({ label: day(d.day), value: d.contexts }))} />
          <BarChart id="chart-tokens" title="Tokens served per day (UTC)" unit="tokens" bars={served.map((d) => ({ label: day(d.day), value: d.tokens }))} />
        </div>
      ) : (
        <EmptyState title={`No context served in the last ${SERVED_DAYS} days.`}>
          <p>
            Connect Claude Code to this server (the Baton plugin, or <code>baton install claude</code> in the repository: see{" "}
            <Link href="/settings/connect">Settings → Connect</Link>); every session start then shows up here.
          </p>
        </EmptyState>
      )}
    </section>
  );
}

function PendingProposals({ slug, proposals }: { slug: string; proposals: Overview["proposals"] }) {
  const more = proposals.total ? <Link href={`/proposals?project=${slug}`}>Review {proposals.total.toLocaleString("en")} →</Link> : null;
  return (
    <Panel id="pending" title="Pending proposals" more={more}>
      {proposals.items.length ? (
        <ul className="plain-list">
          {proposals.items.map((p) => (
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
    </Panel>
  );
}

function QueuedSessions({ base, queued }: { base: string; queued: Overview["sessions"]["queued"] }) {
  return (
    <Panel id="queued" title="Queued sessions" more={<Link href={`${base}/sessions`}>Session board →</Link>}>
      {queued.length ? (
        <ul className="plain-list">
          {queued.map((s) => (
            <li key={s.id}>
              <code>{s.id}</code> {s.branch ? <span className="muted">on {s.branch}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="The queue is empty.">
          <p>
            Queue a unit of work with <code>baton session new --spec … --file …</code>; an agent picks it up with{" "}
            <code>baton pickup</code>.
          </p>
        </EmptyState>
      )}
    </Panel>
  );
}
