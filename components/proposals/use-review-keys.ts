"use client";

import { useEffect } from "react";
import type { QueueEntry } from "./queue-types";
import type { QueueCursor } from "./use-queue-cursor";

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** The review keys (j/k or arrows, x, a, r, e, u, Escape), ignored while typing or editing. */
export function useReviewKeys(entries: QueueEntry[], cursor: QueueCursor, decided: ReadonlyMap<string, unknown>, undoLast: () => void) {
  const { act, current, editing, moveTo, setEditing, setSelected, toggle } = cursor;
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
        x: () => entry && entry.canDecide && !decided.has(entry.id) && toggle(entry.id),
        a: () => act("accepted"),
        r: () => act("rejected"),
        e: () => {
          if (!entry || !entry.canDecide || decided.has(entry.id)) return;
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
  }, [act, current, decided, editing, entries, moveTo, setEditing, setSelected, toggle, undoLast]);
}
