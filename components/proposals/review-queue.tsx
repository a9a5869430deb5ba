"use client";

import { useRef, type RefObject } from "react";
import { useHydrated } from "../ui/use-hydrated";
import { useReportDecided } from "./pending-count";
import { ProposalItem } from "./proposal-item";
import type { QueueEntry } from "./queue-types";
import { useQueueCursor, type QueueCursor } from "./use-queue-cursor";
import { useReview } from "./use-review";
import { useReviewKeys } from "./use-review-keys";

type Review = ReturnType<typeof useReview>;

const NONE: ReadonlySet<string> = new Set();

/**
 * The keyboard review queue for one page of pending proposals: j/k move, x selects, a accepts, r rejects
 * (the selection when there is one, else the current proposal), e edits then accepts, u undoes. Without
 * JavaScript every row still has its own forms (see RowForms).
 */
export function ReviewQueue({ entries, nextHref }: { entries: QueueEntry[]; nextHref: string | null }) {
  // Rows render plain forms until the keyboard handling below is live.
  const hydrated = useHydrated();
  const rows = useRef(new Map<string, HTMLLIElement>());
  const review = useReview(entries);
  useReportDecided(review.decisions.size);
  const cursor = useQueueCursor(entries, review, rows);
  useReviewKeys(entries, cursor, review.decisions, review.undoLast);
  return (
    <div className="stack" data-ready={hydrated || undefined} data-testid="review-queue">
      <QueueToolbar cursor={cursor} hydrated={hydrated} undoLast={review.undoLast} />
      <p className="queue-status" role="status" aria-live="polite" data-testid="queue-status">
        {review.message}
      </p>
      {review.error ? (
        <p className="notice notice-error" role="alert">
          {review.error}
        </p>
      ) : null}
      <QueueRows entries={entries} cursor={cursor} review={review} rows={rows} hydrated={hydrated} />
      {hydrated && !cursor.open.length && entries.length ? (
        <p className="notice notice-ok">
          Every proposal on this page is decided.{" "}
          {nextHref ? <a href={nextHref}>Next page</a> : "Reload to see whatever has arrived since."}
        </p>
      ) : null}
    </div>
  );
}

/** Select all, and the bulk decisions about the selection. */
function QueueToolbar({ cursor, hydrated, undoLast }: { cursor: QueueCursor; hydrated: boolean; undoLast: () => void }) {
  const { open, selectedOpen, setSelected, act } = cursor;
  const allSelected = open.length > 0 && selectedOpen.length === open.length;
  return (
    <div className="queue-toolbar" role="toolbar" aria-label="Bulk review">
      <label className="check-label">
        <input
          type="checkbox"
          disabled={!hydrated || !open.length}
          checked={allSelected}
          onChange={() => setSelected(allSelected ? new Set() : new Set(open.map((e) => e.id)))}
        />{" "}
        Select all on this page
      </label>
      <button type="button" className="btn btn-primary btn-sm" disabled={!selectedOpen.length} onClick={() => act("accepted")}>
        Accept selected ({selectedOpen.length})
      </button>
      <button type="button" className="btn btn-danger btn-sm" disabled={!selectedOpen.length} onClick={() => act("rejected")}>
        Reject selected ({selectedOpen.length})
      </button>
      <button type="button" className="btn btn-secondary btn-sm" disabled={!hydrated} onClick={undoLast}>
        Undo last
      </button>
    </div>
  );
}

type RowsProps = {
  entries: QueueEntry[];
  cursor: QueueCursor;
  review: Review;
  rows: RefObject<Map<string, HTMLLIElement>>;
  hydrated: boolean;
};

/** The proposals, each wired to the cursor and to the decisions. */
function QueueRows({ entries, cursor, review, rows, hydrated }: RowsProps) {
  const { current, setCurrent, selected, editing, setEditing, toggle, advanceFrom } = cursor;
  const { decisions, decide, undo, supersedes, toggleSupersede } = review;
  return (
    <ol className="queue" aria-label="Pending proposals">
      {entries.map((entry, index) => (
        <ProposalItem
          key={entry.id}
          register={(el) => {
            if (el) rows.current.set(entry.id, el);
            else rows.current.delete(entry.id);
          }}
          entry={entry}
          position={index + 1}
          decision={decisions.get(entry.id)}
          current={hydrated && index === current}
          selected={selected.has(entry.id)}
          editing={editing === entry.id}
          hydrated={hydrated}
          ticked={supersedes.get(entry.id) ?? NONE}
          onToggleSupersede={(learningId) => toggleSupersede(entry.id, learningId)}
          onFocusRow={() => setCurrent(index)}
          onToggle={() => toggle(entry.id)}
          onAccept={(content) => {
            setEditing(null);
            decide([entry.id], "accepted", content ? { id: entry.id, content } : undefined);
            advanceFrom(index, new Set([entry.id]));
          }}
          onReject={() => {
            decide([entry.id], "rejected");
            advanceFrom(index, new Set([entry.id]));
          }}
          onEdit={() => setEditing(entry.id)}
          onCancelEdit={() => {
            setEditing(null);
            rows.current.get(entry.id)?.focus();
          }}
          onUndo={() => undo([entry.id])}
        />
      ))}
    </ol>
  );
}
