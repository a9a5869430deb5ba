import {
  deleteLearningAction,
  setLearningConfirmedAction,
} from "@/lib/actions/learning-actions";
import type { LearningKind } from "@/lib/rules";
import { ActionForm } from "../ui/action-form";
import { KindBadge } from "../ui/kind-badge";
import { EditLearningForm } from "./edit-learning-form";

export type LearningView = {
  id: string;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  tags: string[];
  project: string | null;
  source: string;
  createdAt: Date;
  lastInjectedAt: Date | null;
};

/**
 * One learning with what can be done to it. Edit and delete open in place (details elements, so they
 * work without JavaScript); delete asks once more before it acts.
 */
export function LearningCard({ learning, canWrite }: { learning: LearningView; canWrite: boolean }) {
  const l = learning;
  return (
    <article className="card learning" aria-label={`Learning: ${l.content.slice(0, 60)}`} data-testid="learning">
      <p className="learning-content">{l.content}</p>
      <p className="meta">
        <KindBadge kind={l.kind} />
        {l.confirmed ? <span className="badge badge-ok">confirmed</span> : <span className="badge badge-muted">unconfirmed</span>}
        <span>{l.project ? <code>{l.project}</code> : "personal"}</span>
        {l.tags.length ? <span>tags: {l.tags.join(", ")}</span> : null}
        <span>from {l.source}</span>
        <time dateTime={l.createdAt.toISOString()}>added {l.createdAt.toISOString().slice(0, 10)}</time>
        <span>{l.lastInjectedAt ? `last sent to an agent ${l.lastInjectedAt.toISOString().slice(0, 10)}` : "not sent to an agent yet"}</span>
      </p>
      {canWrite ? (
        <div className="row-actions learning-actions">
          <ActionForm action={setLearningConfirmedAction} fields={{ id: l.id, confirmed: l.confirmed ? "false" : "true" }}>
            {l.confirmed ? "Unconfirm" : "Confirm"}
          </ActionForm>
          <details className="disclosure">
            <summary>Edit</summary>
            <EditLearningForm id={l.id} kind={l.kind} content={l.content} tags={l.tags} />
          </details>
          <details className="disclosure">
            <summary>Delete…</summary>
            <div className="danger-zone">
              <p>Delete this learning for good? Agents stop receiving it; this cannot be undone.</p>
              <ActionForm action={deleteLearningAction} fields={{ id: l.id }} variant="danger">
                Delete learning
              </ActionForm>
            </div>
          </details>
        </div>
      ) : (
        <p className="hint">View only: your role in {l.project} is viewer.</p>
      )}
    </article>
  );
}
