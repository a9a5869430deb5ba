/** What an import did, per format; a second run of the same import only counts "unchanged" and "skipped". */
export type ImportSummary = {
  seed: { files: number; learningsAdded: number; learningsSkipped: number; proposalsAdded: number; proposalsSkipped: number };
  handoffs: { added: number; updated: number; unchanged: number; failed: number };
  taskMemories: { added: number; updated: number; unchanged: number; failed: number };
  sessions: { added: number; unchanged: number; skippedDoing: number; skippedArchive: number; failed: number };
  projectsCreated: string[];
  errors: { file: string; message: string }[];
};

export function emptySummary(): ImportSummary {
  return {
    seed: { files: 0, learningsAdded: 0, learningsSkipped: 0, proposalsAdded: 0, proposalsSkipped: 0 },
    handoffs: { added: 0, updated: 0, unchanged: 0, failed: 0 },
    taskMemories: { added: 0, updated: 0, unchanged: 0, failed: 0 },
    sessions: { added: 0, unchanged: 0, skippedDoing: 0, skippedArchive: 0, failed: 0 },
    projectsCreated: [],
    errors: [],
  };
}

/** The summary for people: one line per format that was present. */
export function formatSummary(s: ImportSummary): string {
  const lines: string[] = [];
  if (s.projectsCreated.length) lines.push(`Projects created: ${s.projectsCreated.join(", ")}`);
  if (s.seed.files) {
    lines.push(
      `Seed: ${s.seed.learningsAdded} learnings added, ${s.seed.learningsSkipped} already there; ${s.seed.proposalsAdded} proposals added, ${s.seed.proposalsSkipped} already there`,
    );
  }
  const h = s.handoffs;
  if (h.added + h.updated + h.unchanged + h.failed) lines.push(`Amplifier handoffs: ${h.added} added, ${h.updated} updated, ${h.unchanged} already there${h.failed ? `, ${h.failed} failed` : ""}`);
  const m = s.taskMemories;
  if (m.added + m.updated + m.unchanged + m.failed) lines.push(`Task memory: ${m.added} added, ${m.updated} updated, ${m.unchanged} already there${m.failed ? `, ${m.failed} failed` : ""}`);
  const q = s.sessions;
  if (q.added + q.unchanged + q.skippedDoing + q.skippedArchive + q.failed) {
    const skipped = [
      q.skippedDoing ? `${q.skippedDoing} in doing skipped (claimed in spx: finish them there, or move them to todo and import again)` : null,
      q.skippedArchive ? `${q.skippedArchive} in archive skipped (done)` : null,
    ].filter(Boolean);
    lines.push(`spx sessions: ${q.added} queued, ${q.unchanged} already there${q.failed ? `, ${q.failed} failed` : ""}${skipped.length ? `; ${skipped.join("; ")}` : ""}`);
  }
  for (const e of s.errors) lines.push(`  failed: ${e.file}: ${e.message}`);
  return lines.join("\n");
}
