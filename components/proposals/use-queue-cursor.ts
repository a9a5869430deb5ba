"use client";

import { useCallback, useState, type RefObject } from "react";
import type { QueueEntry, Verdict } from "./queue-types";
import type { useReview } from "./use-review";

type Review = ReturnType<typeof useReview>;

/**
 * Where the reviewer is in the queue: the current row, the selected rows, the row being edited, and the
 * moves between them. A decision about the current row moves on to the next one still pending.
 */
export function useQueueCursor(entries: QueueEntry[], review: Review, rows: RefObject<Map<string, HTMLLIElement>>) {
  const { decisions, decide, setMessage } = review;
  const [current, setCurrent] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const open = entries.filter((e) => e.canDecide && !decisions.has(e.id));
  const selectedOpen = [...selected].filter((id) => open.some((e) => e.id === id));

  const moveTo = useCallback(
    (index: number) => {
      const clamped = Math.max(0, Math.min(entries.length - 1, index));
      setCurrent(clamped);
      const entry = entries[clamped];
      if (entry) rows.current.get(entry.id)?.focus();
    },
    [entries, rows],
  );

  /** After a decision about the current row, on to the next one still pending. */
  const advanceFrom = useCallback(
    (index: number, decided: Set<string>) => {
      const next = entries.findIndex((e, i) => i > index && !decisions.has(e.id) && !decided.has(e.id));
      if (next >= 0) moveTo(next);
    },
    [decisions, entries, moveTo],
  );

  /** a / r: the selection when there is one, else the current proposal. */
  const act = useCallback(
    (verdict: Verdict) => {
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

  return { current, setCurrent, selected, setSelected, editing, setEditing, open, selectedOpen, moveTo, advanceFrom, act, toggle };
}

export type QueueCursor = ReturnType<typeof useQueueCursor>;
