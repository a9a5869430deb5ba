import type { LearningRow } from "../db/queries/learnings";
import type { ProposalRow } from "../db/queries/proposals";

/**
 * What someone did to the learning an accept made, since that accept: [] when it is still as the
 * accept left it (its text, or the text edited in the accept itself; its kind; confirmed at the accept;
 * unpinned, untagged, not superseded). Bookkeeping (injections, usage, file flags) does not count.
 */
export function changedSinceAccept(learning: LearningRow, proposal: ProposalRow): string[] {
  const decidedAt = proposal.decidedAt?.getTime() ?? 0;
  const editedLater = learning.editedAt !== null && learning.editedAt.getTime() !== learning.acceptedAt?.getTime();
  return [
    (editedLater || learning.kind !== proposal.kind) && "edited",
    learning.pinned && "pinned",
    !learning.confirmed && "unconfirmed",
    learning.confirmed && (learning.confirmedAt?.getTime() ?? 0) > decidedAt && "confirmed again",
    learning.tags.length > 0 && "tagged",
    learning.supersededAt !== null && "superseded",
  ].filter((change): change is string => typeof change === "string");
}
