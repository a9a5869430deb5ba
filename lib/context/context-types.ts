import type { AgentName, ContextMode, LearningKind } from "../rules";

/** Everything the context is made from, gathered from the stores for one request. Plain data, no Dates from a driver needed beyond these. */
export type { LearningKind };
export type SessionSource = "startup" | "resume" | "clear" | "compact" | "fork";

export type ContextIdentity = {
  aiName: string;
  principalName: string;
  catchphrase?: string;
  /** The voice a text-to-speech host speaks in (pai-seed's voiceId). */
  voiceId?: string;
  preferences?: { responseStyle?: string; timezone?: string; locale?: string };
};

export type ContextLearning = {
  id: string;
  kind: LearningKind;
  content: string;
  confirmed: boolean;
  /** 0..1 relative to the best match; null when ranked by recency alone (and for pinned ones). */
  relevance: number | null;
  /** In every context of its scope, ahead of the ranked ones. */
  pinned?: boolean;
  /**
   * Set when someone else than the reader wrote it (a teammate, in a project): who (null once that
   * account is gone), so the agent can weigh it. The reader's own carry nothing.
   */
  writer?: { name: string | null };
  /** When it was written: the context marks its age once that is past STALE_AFTER_DAYS (relative-time.ts). */
  writtenAt?: Date;
};

export type ContextData = {
  now: Date;
  /** Where people review proposals: the dashboard's URL. */
  dashboardUrl: string;
  identity: ContextIdentity | null;
  /** The "Baton setup" note is due: no identity, and no context has shown the note yet (it is shown once). */
  setupNote: boolean;
  project: { slug: string; name: string } | null;
  /**
   * `imported`: the repository's CLAUDE.local.md imports this memory already, so the agent has it.
   * `author`: the name of who last wrote it (null once that account is gone); `bySelf`: the user themself.
   */
  activeTask: { taskId: string; markdown: string; updatedAt: Date; author: string | null; bySelf: boolean; imported?: boolean } | null;
  /**
   * Set when the request gave a working directory or remote and no project of the user's matched
   * them: what was tried, so the context can say so.
   */
  unmapped?: { remote: string | null; cwd: string | null } | null;
  /**
   * `agent`: the coding agent that wrote it, when its hook said; `checkpoint`: this very session's
   * handoff, posted before its compaction (source=compact).
   */
  handoff: { markdown: string; branch: string | null; author: string; agent: AgentName | null; createdAt: Date; matchedBranch: boolean; checkpoint?: boolean } | null;
  /** Pinned ones first, then ranked best first. */
  learnings: ContextLearning[];
  learningsRanked: boolean;
  /** Every learning this context could draw from (the user's personal ones and the project's), by kind. */
  learningCounts: Record<LearningKind, number>;
  /** Newest first; proposalCount may be larger than the list. */
  proposals: { id: string; kind: LearningKind; content: string; confidence: number }[];
  proposalCount: number;
  /**
   * `lastSessionAt`: the user's last session other than the one asking (lib/context/gather/marks.ts);
   * `seedVersion`: the stored seed's, null without a seed.
   */
  state: { lastSessionAt: Date | null; activeProjects: string[]; checkpointRef: string | null; queuedSessions: number; seedVersion: string | null };
};

/** What decides which sections a context has and in which order (lib/context/pack/render-sections.ts). */
export type RenderOptions = {
  mode: ContextMode;
  source?: SessionSource;
};

/** With the limits the sections are then packed into (lib/context/pack/pack-context.ts). */
export type ContextOptions = RenderOptions & {
  budget: number;
  maxChars: number;
};

export type SectionName = "mapping" | "setup" | "identity" | "task" | "handoff" | "learnings" | "proposals" | "state";

export type SectionReport = { name: SectionName; tokens: number; included: boolean; omitted: number };
