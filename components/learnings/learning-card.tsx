import {
  clearLearningFlagAction,
  deleteLearningAction,
  restoreLearningAction,
  setLearningConfirmedAction,
  setLearningPinnedAction,
} from "@/lib/actions/learning-actions";
import type { LearningRow } from "@/lib/db/queries/learnings";
import { utcDay } from "@/lib/context/pack/relative-time";
import { flagText, usageText, type Usage } from "@/lib/learnings/learning-usage";
import { provenanceOf, provenanceText, type Provenance } from "@/lib/learnings/provenance";
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
  pinned: boolean;
  supersededAt: Date | null;
  /** The newer learning's text, while it exists. */
  supersededByContent: string | null;
  provenance: Provenance;
  /** The files it names (issue 27). */
  files: string[];
  /** "given in 12 sessions, touched in 5, last 3 days ago", or "never given yet" (lib/learnings/learning-usage.ts). */
  usage: string;
  /** Why a later session put it in doubt ("src/x.ts was deleted in a session on 2026-11-26"), or null. */
  flag: string | null;
};

/** A learning as the card shows it, with its usage as read for the page (usageOf). */
export function learningView(l: LearningRow, usage: Map<string, Usage>): LearningView {
  return { ...l, provenance: provenanceOf(l), usage: usageText(usage.get(l.id)), flag: l.flaggedAt ? flagText(l) : null };
}

/**
 * One learning with what can be done to it. Edit and delete open in place (details elements, so they
 * work without JavaScript); delete asks once more before it acts.
 */
export function LearningCard({ learning, canWrite, children }: { learning: LearningView; canWrite: boolean; children?: React.ReactNode }) {
  const l = learning;
  return (
    <article className="card learning" aria-label={`Learning: ${l.content.slice(0, 60)}`} data-testid="learning" data-superseded={l.supersededAt ? "" : undefined}>
      <p className="learning-content" dir="auto">{l.content}</p>
      {l.supersededAt ? <Superseded learning={l} /> : null}
      <Flag flag={l.flag} />
      <p className="meta">
        <KindBadge kind={l.kind} />
        {l.pinned ? <span className="badge badge-pinned">pinned</span> : null}
        {l.supersededAt ? <span className="badge badge-superseded">superseded</span> : null}
        {l.confirmed ? <span className="badge badge-ok">confirmed</span> : <span className="badge badge-muted">unconfirmed</span>}
        <span>{l.project ? <code>{l.project}</code> : "personal"}</span>
        {l.tags.length ? <span>tags: {l.tags.join(", ")}</span> : null}
        <time dateTime={l.createdAt.toISOString()}>added {utcDay(l.createdAt)}</time>
        <span>{l.lastInjectedAt ? `last sent to an agent ${utcDay(l.lastInjectedAt)}` : "not sent to an agent yet"}</span>
      </p>
      <p className="hint" data-testid="provenance">
        {provenanceText(l.provenance)}
      </p>
      <Usage learning={l} />
      {canWrite ? (
        <div className="row-actions learning-actions">
          {children}
          <ActionForm action={setLearningConfirmedAction} fields={{ id: l.id, confirmed: l.confirmed ? "false" : "true" }}>
            {l.confirmed ? "Unconfirm" : "Confirm"}
          </ActionForm>
          <ActionForm action={setLearningPinnedAction} fields={{ id: l.id, pinned: l.pinned ? "false" : "true" }}>
            {l.pinned ? "Unpin" : "Pin"}
          </ActionForm>
          {l.flag ? (
            <ActionForm action={clearLearningFlagAction} fields={{ id: l.id }}>
              Still true: clear the flag
            </ActionForm>
          ) : null}
          {l.supersededAt ? (
            <ActionForm action={restoreLearningAction} fields={{ id: l.id }}>
              Restore (no longer superseded)
            </ActionForm>
          ) : null}
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

/** Why a later session put it in doubt (issue 27), and what to do about it. */
function Flag({ flag }: { flag: string | null }) {
  if (!flag) return null;
  return (
    <p className="hint" data-testid="flag">
      <span className="badge badge-flagged">flagged</span> {flag}; check it still holds: edit it, or clear the flag if it does.
    </p>
  );
}

/** Used or not (issue 27): how many sessions were given it and touched what it is about, and the files it names. Not a ranking signal. */
function Usage({ learning: l }: { learning: LearningView }) {
  return (
    <p className="hint" data-testid="usage">
      {l.usage}
      {l.files.length ? (
        <>
          {" "}
          · names{" "}
          {l.files.map((f, i) => (
            <span key={f}>
              {i ? ", " : ""}
              <code>{f}</code>
            </span>
          ))}
        </>
      ) : null}
    </p>
  );
}

/** What replaced a superseded learning, and that agents no longer get it. */
function Superseded({ learning: l }: { learning: LearningView }) {
  return (
    <p className="hint" data-testid="superseded-by">
      Superseded {l.supersededAt!.toISOString().slice(0, 10)}
      {l.supersededByContent ? (
        <>
          {" "}
          by <q>{l.supersededByContent}</q>
        </>
      ) : (
        " (the newer learning has since been deleted)"
      )}
      ; no longer sent to agents.
    </p>
  );
}
