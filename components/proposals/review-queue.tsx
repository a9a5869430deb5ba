"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { useHydrated } from "../ui/use-hydrated";
import { ProposalItem } from "./proposal-item";
import type { QueueEntry } from "./queue-types";
import { useReview } from "./use-review";

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/**
 * The keyboard review queue for one page of pending proposals: j/k move, x selects, a accepts, r rejects
 * (the selection when there is one, else the current proposal), e edits then accepts, u undoes. Without
 * JavaScript every row still has its own forms (see RowForms).
 */
export function ReviewQueue({ entries, nextHref }: { entries: QueueEntry[]; nextHref: string | null }) {
  // Rows render plain forms until the keyboard handling below is live.
  const hydrated = useHydrated();
  const [current, setCurrent] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const rows = useRef(new Map<string, HTMLLIElement>());
  const { decisions, message, error, setMessage, decide, undo, undoLast } = useReview(entries);

  const open = entries.filter((e) => e.canDecide && !decisions.has(e.id));
  const selectedOpen = [...selected].filter((id) => open.some((e) => e.id === id));

  const moveTo = useCallback(
    (index: number) => {
      const clamped = Math.max(0, Math.min(entries.length - 1, index));
      setCurrent(clamped);
      const entry = entries[clamped];
      if (entry) rows.current.get(entry.id)?.focus();
    },
    [entries],
  );

  /** After a decision about the current row, on to the next one still pending. */
  const advanceFrom = useCallback(
    (index: number, decided: Set<string>) => {
      const next = entries.findIndex((e, i) => i > index && !decisions.has(e.id) && !decided.has(e.id));
      if (next >= 0) moveTo(next);
    },
    [decisions, entries, moveTo],
  );

  const act = useCallback(
    (verdict: "accepted" | "rejected") => {
      const entry = entries[current];
      const ids = selectedOpen.length ? selectedOpen : entry ? [entry.id] : [];
      if (!selectedOpen.length && entry) {
        if (!entry.canDecide) return setMessage("You may only read this proposal: your role in its project is viewer.");
        if (decisions.has(entry.id)) return setMessage("Already decided. Press u to undo.");
      }
      decide(ids, verdict);
      setSelected(new Set());
      if (!selectedOpen.length) advanceFrom(current, new Set(ids));
    },
    [advanceFrom, current, decide, decisions, entries, selectedOpen, setMessage],
  );

  const toggle = useCallback((id: string) => {
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || editing) return;
      const target = event.target as HTMLElement;
      if (TYPING.has(target.tagName) && !(target.tagName === "INPUT" && (target as HTMLInputElement).type === "checkbox")) return;
      if (target.isContentEditable) return;
      const entry = entries[current];
      const keys: Record<string, () => void> = {
        j: () => moveTo(current + 1),
        ArrowDown: () => moveTo(current + 1),
        k: () => moveTo(current - 1),
        ArrowUp: () => moveTo(current - 1),
        x: () => entry && entry.canDecide && !decisions.has(entry.id) && toggle(entry.id),
        a: () => act("accepted"),
        r: () => act("rejected"),
        e: () => {
          if (!entry || !entry.canDecide || decisions.has(entry.id)) return;
          setEditing(entry.id);
        },
        u: () => undoLast(),
        Escape: () => setSelected(new Set()),
      };
      const run = keys[event.key];
      if (!run) return;
      event.preventDefault();
      run();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [act, current, decisions, editing, entries, moveTo, toggle, undoLast]);

  const allSelected = open.length > 0 && selectedOpen.length === open.length;
  return (
    <div className="stack" data-ready={hydrated || undefined} data-testid="review-queue">
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
      <p className="queue-status" role="status" aria-live="polite" data-testid="queue-status">
        {message}
      </p>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : null}
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
      {hydrated && !open.length && entries.length ? (
        <p className="notice notice-ok">
          Every proposal on this page is decided.{" "}
          {nextHref ? <a href={nextHref}>Next page</a> : "Reload to see whatever has arrived since."}
        </p>
      ) : null}
    </div>
  );
}
