"use client";

import { KindBadge } from "../ui/kind-badge";
import type { QueueEntry } from "./queue-types";

type Props = {
  entry: QueueEntry;
  hydrated: boolean;
  /** Ticked while the page's script runs; without it the boxes belong to the row's accept form. */
  ticked: ReadonlySet<string>;
  decided: boolean;
  onToggle: (learningId: string) => void;
};

/** The id of a row's plain accept form, which the boxes below post with when JavaScript is off. */
export const acceptFormId = (entry: QueueEntry) => `accept-${entry.id}`;

/**
 * Learnings of the proposal's scope about the same subject. A reviewer who can decide ticks those the
 * proposal replaces; accepting it then marks them superseded (kept and searchable, never sent to agents).
 */
export function SimilarLearnings({ entry, hydrated, ticked, decided, onToggle }: Props) {
  if (!entry.similar.length) return null;
  return (
    <div className="similar" data-testid="similar-learnings">
      <p className="similar-title">
        {entry.similar.length === 1 ? "A similar learning exists" : "Similar learnings exist"}
        {entry.canDecide ? ": tick what this proposal replaces, and accepting it marks that superseded." : "."}
      </p>
      {/* Not a list: the row is an item of the queue's list, and its rows alone are that list's items. */}
      <div className="similar-list" role="group" aria-label="Similar learnings">
        {entry.similar.map((l, i) => {
          const text = (
            <>
              <KindBadge kind={l.kind} /> {l.pinned ? <span className="badge badge-pinned">pinned</span> : null} <q>{l.content}</q>
            </>
          );
          if (!entry.canDecide) return <div key={l.id}>{text}</div>;
          const box = hydrated
            ? { checked: ticked.has(l.id), onChange: () => onToggle(l.id), disabled: decided }
            : { name: `supersede-${i}`, value: l.id, form: acceptFormId(entry) };
          return (
            <div key={l.id}>
              <label className="check-label">
                <input type="checkbox" {...box} /> Supersede {text}
              </label>
            </div>
          );
        })}
      </div>
    </div>
  );
}
