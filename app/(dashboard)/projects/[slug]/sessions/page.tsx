import type { Metadata } from "next";
import type { SessionDocView } from "@/lib/db/queries/sessions";
import { SessionActions } from "@/components/projects/session-actions";
import { SessionCard } from "@/components/projects/session-card";
import { markdownBudget } from "@/components/markdown/markdown";
import { requireUser } from "@/lib/auth/session";
import { orNotFound } from "@/lib/dashboard/load-project";
import { requireProject } from "@/lib/projects/projects";
import { listSessions } from "@/lib/sessions/sessions";

type Params = Promise<{ slug: string }>;

export const metadata: Metadata = { title: "Session queue" };

// Commands in <code>, as everywhere in the dashboard: test/integration/shown-commands.test.ts runs each.
const columns = [
  {
    status: "todo",
    title: "To do",
    empty: (
      <>
        Nothing queued. Add work with <code>baton session new --spec … --file …</code>.
      </>
    ),
  },
  {
    status: "doing",
    title: "Doing",
    empty: (
      <>
        Nobody is on anything. An agent claims the next document with <code>baton pickup</code>.
      </>
    ),
  },
  { status: "done", title: "Done", empty: "Nothing finished yet." },
] as const;

const SHOWN = 100;

export default async function SessionsPage({ params }: { params: Params }) {
  const { slug } = await params;
  const { db, principal } = await requireUser();
  const [project, lists] = await orNotFound(() =>
    Promise.all([
      requireProject(db, principal, slug, "read"),
      Promise.all(columns.map((c) => listSessions(db, principal, slug, { status: c.status, limit: SHOWN }))),
    ]),
  );
  // Who may finish a claimed document, as completeSession decides: its claimer, or any owner; never a viewer.
  const mayFinish = (s: SessionDocView) =>
    s.status === "doing" && project.role !== "viewer" && (project.role === "owner" || s.claimedByUserId === principal.userId);
  const now = new Date();
  const budget = markdownBudget();
  return (
    <div className="board">
      {columns.map((c, i) => {
        const list = lists[i]!;
        return (
          <section key={c.status} className="board-column" aria-labelledby={`col-${c.status}`} data-testid={`column-${c.status}`}>
            <h2 id={`col-${c.status}`}>
              {c.title} <span className="count">{list.items.length}{list.nextCursor ? "+" : ""}</span>
            </h2>
            {list.items.length ? (
              list.items.map((s) => (
                <SessionCard key={s.id} session={s} now={now} budget={budget}>
                  {mayFinish(s) ? <SessionActions id={s.id} slug={project.slug} /> : null}
                </SessionCard>
              ))
            ) : (
              <p className="empty">{c.empty}</p>
            )}
            {list.nextCursor ? <p className="hint">Showing the first {SHOWN}.</p> : null}
          </section>
        );
      })}
    </div>
  );
}
