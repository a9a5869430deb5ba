"use client";

import { useCallback, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from "react";
import { reviewAction, undoAction } from "@/lib/actions/proposal-actions";
import type { Decision, QueueEntry, Verdict } from "./queue-types";

type Batch = string[];
type Edit = { id: string; content: string };

/** What the decide and undo steps share: stable for the life of the page, so the callbacks built on it are too. */
type Store = {
  /** The latest decisions, read synchronously: two key presses in one tick must not decide twice. */
  latest: RefObject<ReadonlyMap<string, Decision>>;
  history: RefObject<Batch[]>;
  byId: RefObject<Map<string, QueueEntry>>;
  /** Per proposal, the similar learnings ticked to be superseded when it is accepted. */
  supersedes: RefObject<ReadonlyMap<string, ReadonlySet<string>>>;
  toggleSupersede: (proposalId: string, learningId: string) => void;
  patch: (change: (next: Map<string, Decision>) => void) => void;
  /** Runs server calls one after another. */
  enqueue: <T>(call: () => Promise<T>) => Promise<T>;
  setMessage: Dispatch<SetStateAction<string>>;
  setError: Dispatch<SetStateAction<string>>;
};

/**
 * The review page's decisions: shown at once (optimistic), sent to the server in order (one call after
 * another, so an undo never overtakes the decision it undoes), rolled back with a message when the
 * server refuses. Every decision stays undoable while the page is open.
 */
export function useReview(entries: QueueEntry[]) {
  const { store, decisions, message, error, supersedes } = useDecisionStore(entries);
  const decide = useCallback((ids: string[], verdict: Verdict, edited?: Edit) => sendDecision(store, ids, verdict, edited), [store]);
  const undo = useCallback((ids: string[]) => sendUndo(store, ids), [store]);

  /** u: the most recent decision (or bulk decision) still standing. */
  const undoLast = useCallback(() => {
    const last = store.history.current.at(-1);
    if (last) undo(last);
    else store.setMessage("Nothing to undo.");
  }, [store, undo]);

  return { decisions, message, error, setMessage: store.setMessage, decide, undo, undoLast, supersedes, toggleSupersede: store.toggleSupersede };
}

function useDecisionStore(entries: QueueEntry[]) {
  const [decisions, setDecisions] = useState<ReadonlyMap<string, Decision>>(new Map());
  const latest = useRef<ReadonlyMap<string, Decision>>(decisions);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const history = useRef<Batch[]>([]);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const byId = useRef(new Map(entries.map((e) => [e.id, e])));
  const [supersedesShown, setSupersedes] = useState<ReadonlyMap<string, ReadonlySet<string>>>(new Map());
  const supersedes = useRef<ReadonlyMap<string, ReadonlySet<string>>>(supersedesShown);
  const store = useMemo<Store>(
    () => ({
      latest,
      history,
      byId,
      supersedes,
      setMessage,
      setError,
      toggleSupersede: (proposalId, learningId) => {
        const next = new Map(supersedes.current);
        const ticked = new Set(next.get(proposalId));
        if (ticked.has(learningId)) ticked.delete(learningId);
        else ticked.add(learningId);
        next.set(proposalId, ticked);
        supersedes.current = next;
        setSupersedes(next);
      },
      patch: (change) => {
        const next = new Map(latest.current);
        change(next);
        latest.current = next;
        setDecisions(next);
      },
      enqueue: (call) => {
        const run = chain.current.then(call, call);
        chain.current = run.catch(() => undefined);
        return run;
      },
    }),
    [],
  );
  return { store, decisions, message, error, supersedes: supersedesShown };
}

/** Shows the decision at once, then saves it; a refusal takes it back and says why. */
function sendDecision(s: Store, ids: string[], verdict: Verdict, edited?: Edit): void {
  const open = ids.filter((id) => s.byId.current.get(id)?.canDecide && !s.latest.current.has(id));
  if (!open.length) return;
  const word = verdict === "accepted" ? "Accepted" : "Rejected";
  s.patch((next) => {
    for (const id of open) {
      const edit = edited?.id === id ? { originalContent: s.byId.current.get(id)!.content, content: edited.content } : {};
      next.set(id, { verdict, saving: true, ...edit });
    }
  });
  s.history.current.push(open);
  s.setError("");
  s.setMessage(`${word} ${count(open.length)}. Press u to undo.`);
  const body = open.map((id) => {
    const replaced = verdict === "accepted" ? [...(s.supersedes.current.get(id) ?? [])] : [];
    return {
      id,
      action: verdict === "accepted" ? ("accept" as const) : ("reject" as const),
      ...(edited?.id === id ? { content: edited.content } : {}),
      ...(replaced.length ? { supersedes: replaced } : {}),
    };
  });
  const forget = () => {
    s.patch((next) => open.forEach((id) => next.delete(id)));
    s.history.current = s.history.current.filter((b) => b !== open);
  };
  void s.enqueue(() => reviewAction(body)).then(
    (result) => {
      if (result.ok) return markSaved(s, open);
      forget();
      s.setMessage("");
      s.setError(`Not saved: ${result.message ?? "the server refused."}`);
    },
    () => {
      forget();
      s.setError("Not saved: the server could not be reached. Nothing was changed.");
    },
  );
}

function markSaved(s: Store, ids: string[]): void {
  s.patch((next) => {
    for (const id of ids) {
      const d = next.get(id);
      if (d && d.saving) next.set(id, { ...d, saving: false });
    }
  });
}

/** Puts decisions back to pending at once, then tells the server; a refusal restores them. */
function sendUndo(s: Store, ids: string[]): void {
  const taken = ids.flatMap((id) => {
    const d = s.latest.current.get(id);
    return d ? [[id, d] as const] : [];
  });
  if (!taken.length) return;
  s.patch((next) => taken.forEach(([id]) => next.delete(id)));
  const undone = new Set(ids);
  s.history.current = s.history.current.map((b) => b.filter((id) => !undone.has(id))).filter((b) => b.length);
  s.setError("");
  s.setMessage(`Undone: ${count(taken.length)} back to pending.`);
  const body = taken.map(([id, d]) => ({ id, ...(d.originalContent ? { content: d.originalContent } : {}) }));
  const restore = (why: string) => {
    s.patch((next) => taken.forEach(([id, d]) => next.set(id, { ...d, saving: false })));
    s.setMessage("");
    s.setError(`Undo failed: ${why}`);
  };
  void s.enqueue(() => undoAction(body)).then(
    (result) => {
      if (!result.ok) restore(result.message ?? "the server refused.");
    },
    () => restore("the server could not be reached."),
  );
}

function count(n: number): string {
  return n === 1 ? "1 proposal" : `${n} proposals`;
}
