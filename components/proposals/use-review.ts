"use client";

import { useCallback, useRef, useState } from "react";
import { reviewAction, undoAction } from "@/lib/actions/proposal-actions";
import type { Decision, QueueEntry, Verdict } from "./queue-types";

type Batch = string[];

/**
 * The review page's decisions: shown at once (optimistic), sent to the server in order (one call after
 * another, so an undo never overtakes the decision it undoes), rolled back with a message when the
 * server refuses. Every decision stays undoable while the page is open.
 */
export function useReview(entries: QueueEntry[]) {
  const [decisions, setDecisions] = useState<ReadonlyMap<string, Decision>>(new Map());
  // The latest decisions, read synchronously: two key presses in one tick must not decide twice.
  const latest = useRef<ReadonlyMap<string, Decision>>(decisions);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const history = useRef<Batch[]>([]);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const byId = useRef(new Map(entries.map((e) => [e.id, e])));

  const patch = useCallback((change: (next: Map<string, Decision>) => void) => {
    const next = new Map(latest.current);
    change(next);
    latest.current = next;
    setDecisions(next);
  }, []);

  /** Runs server calls one after another. */
  const enqueue = useCallback(<T,>(call: () => Promise<T>): Promise<T> => {
    const run = chain.current.then(call, call);
    chain.current = run.catch(() => undefined);
    return run;
  }, []);

  const decide = useCallback(
    (ids: string[], verdict: Verdict, edited?: { id: string; content: string }) => {
      const open = ids.filter((id) => byId.current.get(id)?.canDecide && !latest.current.has(id));
      if (!open.length) return;
      const word = verdict === "accepted" ? "Accepted" : "Rejected";
      patch((next) => {
        for (const id of open) {
          const edit = edited?.id === id ? { originalContent: byId.current.get(id)!.content, content: edited.content } : {};
          next.set(id, { verdict, saving: true, ...edit });
        }
      });
      history.current.push(open);
      setError("");
      setMessage(`${word} ${count(open.length)}. Press u to undo.`);
      const body = open.map((id) => ({
        id,
        action: verdict === "accepted" ? ("accept" as const) : ("reject" as const),
        ...(edited?.id === id ? { content: edited.content } : {}),
      }));
      void enqueue(() => reviewAction(body)).then((result) => {
        if (result.ok) {
          patch((next) => {
            for (const id of open) {
              const d = next.get(id);
              if (d && d.saving) next.set(id, { ...d, saving: false });
            }
          });
          return;
        }
        patch((next) => open.forEach((id) => next.delete(id)));
        history.current = history.current.filter((b) => b !== open);
        setMessage("");
        setError(`Not saved: ${result.message ?? "the server refused."}`);
      }, () => {
        patch((next) => open.forEach((id) => next.delete(id)));
        history.current = history.current.filter((b) => b !== open);
        setError("Not saved: the server could not be reached. Nothing was changed.");
      });
    },
    [enqueue, patch],
  );

  const undo = useCallback(
    (ids: string[]) => {
      const taken = ids.flatMap((id) => {
        const d = latest.current.get(id);
        return d ? [[id, d] as const] : [];
      });
      if (!taken.length) return;
      patch((next) => taken.forEach(([id]) => next.delete(id)));
      const undone = new Set(ids);
      history.current = history.current.map((b) => b.filter((id) => !undone.has(id))).filter((b) => b.length);
      setError("");
      setMessage(`Undone: ${count(taken.length)} back to pending.`);
      const body = taken.map(([id, d]) => ({ id, ...(d.originalContent ? { content: d.originalContent } : {}) }));
      const restore = (why: string) => {
        patch((next) => taken.forEach(([id, d]) => next.set(id, { ...d, saving: false })));
        setMessage("");
        setError(`Undo failed: ${why}`);
      };
      void enqueue(() => undoAction(body)).then(
        (result) => {
          if (!result.ok) restore(result.message ?? "the server refused.");
        },
        () => restore("the server could not be reached."),
      );
    },
    [enqueue, patch],
  );

  /** u: the most recent decision (or bulk decision) still standing. */
  const undoLast = useCallback(() => {
    const last = history.current.at(-1);
    if (last) undo(last);
    else setMessage("Nothing to undo.");
  }, [undo]);

  return { decisions, message, error, setMessage, decide, undo, undoLast };
}

function count(n: number): string {
  return n === 1 ? "1 proposal" : `${n} proposals`;
}
