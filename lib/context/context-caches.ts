import type { LearningCandidateRow } from "../db/queries/context-candidates";
import { BoundedCache, VersionedCache } from "./bounded-cache";

/**
 * What an instance remembers between contexts, each bounded (an LRU with a size limit), so memory
 * stays flat however many users, projects and words pass through. None is taken on trust: every
 * answer made with them is checked against what the same batch read (lib/context/context-reads.ts).
 *
 * - projects: which project a user's hints (named project, cwd, remote) chose last;
 * - titles: the first line of a task's memory, whose words join the hints;
 * - frequencies: in how many learnings a word occurs (capped at the cutoff), at one state version;
 * - recent: the newest learnings of a scope, at one state version;
 * - storeSize: how many learnings the store holds, at one state version.
 */
export const CACHE_LIMITS = { projects: 10_000, titles: 10_000, frequencies: 50_000, recent: 200, storeSize: 1 } as const;

export type ContextCaches = {
  projects: BoundedCache<string, string | null>;
  titles: BoundedCache<string, string | null>;
  frequencies: VersionedCache<string, number>;
  recent: VersionedCache<string, LearningCandidateRow[]>;
  storeSize: VersionedCache<"store", number>;
};

function create(): ContextCaches {
  return {
    projects: new BoundedCache(CACHE_LIMITS.projects),
    titles: new BoundedCache(CACHE_LIMITS.titles),
    frequencies: new VersionedCache(CACHE_LIMITS.frequencies),
    recent: new VersionedCache(CACHE_LIMITS.recent),
    storeSize: new VersionedCache(CACHE_LIMITS.storeSize),
  };
}

// On globalThis so dev-mode module reloads keep one set.
const holder = globalThis as unknown as { __batonContextCaches?: ContextCaches };

export function contextCaches(): ContextCaches {
  return (holder.__batonContextCaches ??= create());
}
