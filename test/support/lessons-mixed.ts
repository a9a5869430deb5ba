import type { Session, SessionEvent } from "@/cli/src/agents/session";
import { loadHalf, sessionOf, type Half } from "@/bench/lessons/measure";

/**
 * Sessions for comparing the lesson extractor with its recorded output (test/unit/lessons-recorded.test.ts):
 * every labelled session as it is, and sessions stitched from pieces of them, the same for a seed: longer
 * (up to a few hundred events), with the turns between pieces in orders no labelled session has (two
 * users in a row, a tool answering another's command, a failure passed far later). An extractor that
 * reads the session through indexes instead of scans must find on them what the scans found.
 */

export const HALVES: Half[] = ["tune", "held-out", "unseen", "calibrate"];

export function labelledSessions(): { name: string; session: Session }[] {
  return HALVES.flatMap((half) => loadHalf(half).map((s) => ({ name: `${half}/${s.id}`, session: sessionOf(s) })));
}

/** A small seeded generator (mulberry32): the same sessions on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` sessions, each of 2 to 12 pieces (a run of events from one labelled session), some pieces' events swapped in pairs. */
export function mixedSessions(count: number, seed = 20): { name: string; session: Session }[] {
  const pool = labelledSessions().map((s) => s.session.events);
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  return Array.from({ length: count }, (_, k) => {
    const events: SessionEvent[] = [];
    const pieces = 2 + pick(11);
    for (let p = 0; p < pieces; p++) {
      const from = pool[pick(pool.length)]!;
      const start = pick(from.length);
      const piece = from.slice(start, start + 3 + pick(30));
      if (next() < 0.3) for (let i = 0; i + 1 < piece.length; i += 2 + pick(4)) [piece[i], piece[i + 1]] = [piece[i + 1]!, piece[i]!];
      events.push(...piece);
    }
    return { name: `mixed/${seed}-${k}`, session: { agent: "claude", events, sessionId: null, cwd: null, branch: null, model: null, firstAt: null, lastAt: null } };
  });
}
