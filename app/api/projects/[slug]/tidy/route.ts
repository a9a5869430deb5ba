import { guard } from "@/lib/auth/guard";
import { learningOut } from "@/lib/learnings/learning-schemas";
import { tidyQueue, type TidyPair } from "@/lib/learnings/tidy";

const pairOut = (p: TidyPair) => ({ a: learningOut(p.a), b: learningOut(p.b), reasons: p.reasons });

/** The project's tidy-up queue: a page of each kind of problem (lib/learnings/tidy.ts). */
export const GET = guard<{ slug: string }>("read", async ({ db, principal, params }) => {
  const q = await tidyQueue(db, principal, params.slug);
  return Response.json({
    ok: true,
    project: q.project,
    canWrite: q.canWrite,
    stale: q.stale.map(learningOut),
    duplicates: q.duplicates.map(pairOut),
    contradictions: q.contradictions.map(pairOut),
    flagged: q.flagged.map(learningOut),
  });
});
