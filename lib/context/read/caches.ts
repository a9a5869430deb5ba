import type { LearningCandidateRow } from "../../db/queries/context-candidates";
import { BoundedCache, VersionedCache } from "../../process/bounded-cache";
import type { Snapshot } from "./batch";
import type { Reader } from "../../db/queries/scope";
import { processWide } from "../../process/process-state";

/**
 * What an instance remembers between contexts, each bounded (an LRU with a size limit), so memory
 * stays flat however many users, projects and words pass through. None is taken on trust: every
 * answer made with them is checked against the state's version read in the same batch
 * (lib/context/read/read-context.ts).
 *
 * - snapshots: per user's hints (project named, cwd, remote, task), the project, seed and sections
 *   they were last given, with the version they were read at;
 * - frequencies: in how many learnings a reader may read a word occurs (capped at the cutoff), and how
 *   many those are, at one state version (readerWord);
 * - recent: the newest learnings of a scope, at one state version;
 * - seen: the state version this instance read last.
 */
export const CACHE_LIMITS = { snapshots: 2_000, frequencies: 50_000, recent: 200 } as const;

export type ContextCaches = {
  snapshots: BoundedCache<string, Snapshot>;
  frequencies: VersionedCache<string, number>;
  recent: VersionedCache<string, LearningCandidateRow[]>;
  seen: { version: string | null };
};

/**
 * Where `frequencies` holds a word's count among what a reader may read (their personal learnings and
 * their projects', within a token's limit); how many those are is held as the word "" (a hint word is
 * never empty). A count is its reader's alone: nobody else's learnings reach another's choice.
 */
export const readerWord = (reader: Reader, word: string): string =>
  reader.projectIds ? `${reader.userId}\u0000${reader.projectIds.join(",")}\u0000${word}` : `${reader.userId}\u0000${word}`;
export const READABLE_SIZE = "";

function create(): ContextCaches {
  return {
    snapshots: new BoundedCache(CACHE_LIMITS.snapshots),
    frequencies: new VersionedCache(CACHE_LIMITS.frequencies),
    recent: new VersionedCache(CACHE_LIMITS.recent),
    seen: { version: null },
  };
}

export function contextCaches(): ContextCaches {
  return processWide("context caches", create);
}
