const labels = { pattern: "pattern", insight: "insight", self_knowledge: "self-knowledge" } as const;

/** A learning's or proposal's kind as a small coloured label. */
export function KindBadge({ kind }: { kind: keyof typeof labels }) {
  return <span className={`badge badge-${kind}`}>{labels[kind]}</span>;
}
