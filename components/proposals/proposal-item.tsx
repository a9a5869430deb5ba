"use client";

import { MAX_CONTENT_CHARS } from "@/lib/rules";
import { useRef } from "react";
import { KindBadge } from "../ui/kind-badge";
import { ProposalEvidence } from "./proposal-evidence";
import type { Decision, QueueEntry } from "./queue-types";
import { RowForms } from "./row-forms";
import { SimilarLearnings } from "./similar-learnings";

type Props = {
  register: (element: HTMLLIElement | null) => void;
  entry: QueueEntry;
  position: number;
  decision: Decision | undefined;
  current: boolean;
  selected: boolean;
  editing: boolean;
  hydrated: boolean;
  /** The similar learnings ticked to be superseded on accept. */
  ticked: ReadonlySet<string>;
  onToggleSupersede: (learningId: string) => void;
  onFocusRow: () => void;
  onToggle: () => void;
  onAccept: (content?: string) => void;
  onReject: () => void;
  onEdit: () => void;
  onCancelEdit: () => void;
  onUndo: () => void;
};

/** One proposal in the review queue: its text and facts, a selection box, and its decision or the buttons to make one. */
export function ProposalItem({
  register,
  entry,
  position,
  decision,
  current,
  selected,
  editing,
  hydrated,
  ticked,
  onToggleSupersede,
  onFocusRow,
  onToggle,
  onAccept,
  onReject,
  onEdit,
  onCancelEdit,
  onUndo,
}: Props) {
  const state = decision ? decision.verdict : "pending";
  const label = `Proposal ${position}`;
  return (
    <li
      ref={register}
      className="queue-item"
      data-state={state}
      data-current={current || undefined}
      aria-current={current ? "true" : undefined}
      aria-label={label}
      tabIndex={hydrated ? (current ? 0 : -1) : undefined}
      onFocus={(e) => {
        if (e.target === e.currentTarget) onFocusRow();
      }}
      onClick={onFocusRow}
    >
      <div className="queue-check">
        {hydrated && entry.canDecide && !decision ? (
          <input type="checkbox" aria-label={`Select ${label.toLowerCase()}`} checked={selected} onChange={onToggle} />
        ) : null}
      </div>
      <div className="queue-body">
        <p className="queue-content" data-testid="proposal-content" dir="auto">
          {decision?.content ?? entry.content}
        </p>
        <Facts entry={entry} />
        <ProposalEvidence evidence={entry.evidence} />
        <SimilarLearnings entry={entry} hydrated={hydrated} ticked={ticked} decided={Boolean(decision)} onToggle={onToggleSupersede} />
        {editing ? <EditForm entry={entry} onAccept={onAccept} onCancel={onCancelEdit} /> : null}
      </div>
      <div className="queue-actions">
        <RowActions entry={entry} decision={decision} editing={editing} hydrated={hydrated} onAccept={onAccept} onReject={onReject} onEdit={onEdit} onUndo={onUndo} />
      </div>
    </li>
  );
}

/** Kind (and kind of lesson), confidence, where it belongs, age, source, who proposed it, and how often it was proposed. */
function Facts({ entry }: { entry: QueueEntry }) {
  return (
    <p className="meta">
      <KindBadge kind={entry.kind} />
      {entry.lesson ? (
        <span className="badge badge-muted badge-lesson" title="The kind of lesson the session taught">
          {entry.lesson}
        </span>
      ) : null}
      <span title="How sure the proposer was (0–1)">confidence {entry.confidence.toFixed(2)}</span>
      <span>{entry.project ? <code>{entry.project}</code> : "personal"}</span>
      <time dateTime={entry.createdAt}>{entry.age}</time>
      <span>from {entry.source}</span>
      {entry.foundBy ? <span className={`proposal-by-${entry.foundBy.method}`}>{entry.foundBy.label}</span> : null}
      {entry.producedBy ? (
        <span className="proposal-agent" title="The coding agent (and model) that proposed it">
          {entry.producedBy}
        </span>
      ) : null}
      {entry.mergedCount ? <span>proposed {entry.mergedCount + 1}×</span> : null}
    </p>
  );
}

type ActionProps = Pick<Props, "entry" | "decision" | "editing" | "hydrated" | "onAccept" | "onReject" | "onEdit" | "onUndo">;

/** The decision made and its undo, the buttons to make one, or plain forms until JavaScript runs. */
function RowActions({ entry, decision, editing, hydrated, onAccept, onReject, onEdit, onUndo }: ActionProps) {
  if (!entry.canDecide) return <span className="muted">view only</span>;
  if (decision) {
    return (
      <>
        <span className={`verdict verdict-${decision.verdict}`}>
          {decision.verdict === "accepted" ? "Accepted" : "Rejected"}
          {decision.saving ? "…" : ""}
        </span>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onUndo}>
          Undo
        </button>
      </>
    );
  }
  if (!hydrated) return <RowForms entry={entry} />;
  if (editing) return null;
  return (
    <div className="row-actions">
      <button type="button" className="btn btn-primary btn-sm" onClick={() => onAccept()} title="a">
        Accept
      </button>
      <button type="button" className="btn btn-secondary btn-sm" onClick={onEdit} title="e">
        Edit
      </button>
      <button type="button" className="btn btn-danger btn-sm" onClick={onReject} title="r">
        Reject
      </button>
    </div>
  );
}

/** e: the text in a box; Ctrl+Enter (or the button) accepts it, Escape gives up. */
function EditForm({ entry, onAccept, onCancel }: { entry: QueueEntry; onAccept: (content?: string) => void; onCancel: () => void }) {
  const box = useRef<HTMLTextAreaElement>(null);
  const submit = () => {
    const text = box.current?.value.trim() ?? "";
    if (text) onAccept(text === entry.content ? undefined : text);
  };
  return (
    <form
      className="stack-sm edit-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="field">
        <label htmlFor={`edit-${entry.id}`}>Text to accept</label>
        <textarea
          id={`edit-${entry.id}`}
          ref={box}
          rows={3}
          defaultValue={entry.content}
          maxLength={MAX_CONTENT_CHARS}
          autoFocus
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              onCancel();
            } else if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <p className="hint">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> accepts, <kbd>Esc</kbd> cancels.
        </p>
      </div>
      <div className="row-actions">
        <button type="submit" className="btn btn-primary btn-sm">
          Accept edited
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
