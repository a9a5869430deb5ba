import type { Metadata } from "next";
import { LearningCard, learningView } from "@/components/learnings/learning-card";
import { TidyKeys } from "@/components/learnings/tidy-keys";
import { ActionForm } from "@/components/ui/action-form";
import { EmptyState } from "@/components/ui/empty-state";
import { keepTidyAction, replaceTidyAction } from "@/lib/actions/tidy-actions";
import { requireUser } from "@/lib/auth/session";
import type { LearningRow } from "@/lib/db/queries/learnings";
import { orNotFound } from "@/lib/dashboard/load-project";
import { usageOf, type Usage } from "@/lib/learnings/learning-usage";
import { KEEP_DAYS, STALE_DAYS, tidyQueue, type TidyPair } from "@/lib/learnings/tidy";

type Params = Promise<{ slug: string }>;

export const metadata: Metadata = { title: "Tidy up" };

/**
 * The project's tidy-up queue (issue 27): what a person should look at, grouped by kind of problem,
 * each with its learnings and the decisions on them. Plain forms: it works without JavaScript.
 */
export default async function TidyPage({ params }: { params: Params }) {
  const { slug } = await params;
  const { db, principal } = await requireUser();
  const q = await orNotFound(() => tidyQueue(db, principal, slug));
  const all = [...q.stale, ...q.flagged, ...[...q.duplicates, ...q.contradictions].flatMap((p) => [p.a, p.b])];
  const usage = await usageOf(db, [...new Set(all.map((l) => l.id))]);
  const ctx: Ctx = { slug, canWrite: q.canWrite, usage };
  const empty = !all.length;
  return (
    <div className="stack-lg" data-testid="tidy">
      <p className="muted">
        Learnings to look at: contradictions, near-duplicates, ones flagged by a later session, and ones not sent to an agent in{" "}
        {STALE_DAYS} days. Keep one and it stays out of this queue for {KEEP_DAYS} days; every decision is in the audit trail.
      </p>
      {!empty && q.canWrite ? <TidyKeys /> : null}
      {empty ? (
        <EmptyState title="Nothing to tidy.">
          <p>No contradictions, duplicates, flags or unused learnings in this project right now.</p>
        </EmptyState>
      ) : null}
      <Pairs id="contradictions" title="Look contradictory" pairs={q.contradictions} ctx={ctx} />
      <Pairs id="duplicates" title="Near-duplicates" pairs={q.duplicates} ctx={ctx} />
      <Singles id="flagged" title="Flagged by a later session" rows={q.flagged} ctx={ctx} />
      <Singles id="stale" title={`Not sent to an agent in ${STALE_DAYS} days`} rows={q.stale} ctx={ctx} />
    </div>
  );
}

type Ctx = { slug: string; canWrite: boolean; usage: Map<string, Usage> };

function Pairs({ id, title, pairs, ctx }: { id: string; title: string; pairs: TidyPair[]; ctx: Ctx }) {
  if (!pairs.length) return null;
  return (
    <section className="stack" aria-labelledby={id} data-testid={`tidy-${id}`}>
      <h2 id={id}>
        {title} ({pairs.length})
      </h2>
      {pairs.map((p) => (
        <div key={`${p.a.id} ${p.b.id}`} className="card stack-sm tidy-entry" data-testid="tidy-pair" data-tidy-entry="">
          <p className="hint">Why: {p.reasons.join(", ")}</p>
          <Card l={p.a} ctx={ctx}>
            {ctx.canWrite ? <Replace ctx={ctx} keep={p.a} drop={p.b} /> : null}
          </Card>
          <Card l={p.b} ctx={ctx}>
            {ctx.canWrite ? <Replace ctx={ctx} keep={p.b} drop={p.a} /> : null}
          </Card>
          {ctx.canWrite ? (
            <ActionForm action={keepTidyAction} fields={{ slug: ctx.slug, ids: `${p.a.id} ${p.b.id}` }}>
              Keep both
            </ActionForm>
          ) : null}
        </div>
      ))}
    </section>
  );
}

/** The decisions that keep this learning and retire the other. */
function Replace({ ctx, keep, drop }: { ctx: Ctx; keep: LearningRow; drop: LearningRow }) {
  return (
    <>
      <ActionForm action={replaceTidyAction} fields={{ slug: ctx.slug, keep: keep.id, drop: drop.id, how: "merge" }} variant="primary">
        Merge into this one
      </ActionForm>
      <ActionForm action={replaceTidyAction} fields={{ slug: ctx.slug, keep: keep.id, drop: drop.id, how: "supersede" }}>
        This one supersedes the other
      </ActionForm>
    </>
  );
}

function Singles({ id, title, rows, ctx }: { id: string; title: string; rows: LearningRow[]; ctx: Ctx }) {
  if (!rows.length) return null;
  return (
    <section className="stack" aria-labelledby={id} data-testid={`tidy-${id}`}>
      <h2 id={id}>
        {title} ({rows.length})
      </h2>
      {rows.map((l) => (
        <div key={l.id} className="tidy-entry" data-tidy-entry="">
          <Card l={l} ctx={ctx}>
            {ctx.canWrite ? (
              <ActionForm action={keepTidyAction} fields={{ slug: ctx.slug, ids: l.id }}>
                Keep
              </ActionForm>
            ) : null}
          </Card>
        </div>
      ))}
    </section>
  );
}

function Card({ l, ctx, children }: { l: LearningRow; ctx: Ctx; children?: React.ReactNode }) {
  return (
    <LearningCard learning={learningView(l, ctx.usage)} canWrite={ctx.canWrite}>
      {children}
    </LearningCard>
  );
}
