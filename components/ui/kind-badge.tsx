import { KIND_INFO, type LearningKind } from "@/lib/rules";

/** A learning's or proposal's kind as a small coloured label. */
export function KindBadge({ kind }: { kind: LearningKind }) {
  const { badge } = KIND_INFO[kind];
  return <span className={`badge badge-${badge}`}>{badge}</span>;
}
