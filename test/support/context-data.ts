import type { ContextData, ContextOptions } from "@/lib/context/context-types";
import { LEARNING_KINDS, type LearningKind } from "@/lib/rules";

/** The data a context is built from, for the pure engine's tests: a full store, each part overridable. */

/** Learning counts in the rules' kind order (pattern, insight, self-knowledge), the rest zero. */
export function kindCounts(...counts: number[]): Record<LearningKind, number> {
  return Object.fromEntries(LEARNING_KINDS.map((kind, i) => [kind, counts[i] ?? 0])) as Record<LearningKind, number>;
}

export const contextNow = new Date("2026-11-22T12:00:00Z");
export const hoursAgo = (h: number) => new Date(contextNow.getTime() - h * 3_600_000);

export function contextData(overrides: Partial<ContextData> = {}): ContextData {
  return {
    now: contextNow,
    dashboardUrl: "https://baton.test",
    identity: { aiName: "Ivy", principalName: "Jens", catchphrase: "Ivy here.", voiceId: "pNInz6obpgDQ", preferences: { responseStyle: "concise", timezone: "Europe/Zurich" } },
    setupNote: false,
    project: { slug: "web", name: "Web" },
    activeTask: { taskId: "task-368", markdown: "# Task 368\n\n- [x] schema\n- [ ] routes\n", updatedAt: hoursAgo(3), author: "Jens", bySelf: true },
    handoff: { markdown: "Did: the schema.\nNext: the routes.", branch: "main", author: "ana", agent: null, createdAt: hoursAgo(2), matchedBranch: true },
    learnings: Array.from({ length: 12 }, (_, i) => ({
      id: `l${i}`,
      kind: "pattern" as const,
      content: `Learning number ${i} about migrations and tests`,
      confirmed: i % 3 !== 0,
      relevance: 1 - i / 20,
    })),
    learningsRanked: true,
    learningCounts: kindCounts(30, 6, 4),
    proposals: [
      { id: "a1b2c3d4-0000", kind: "pattern", content: "Always run the full test suite before pushing to main", confidence: 0.725 },
      { id: "ffee1122-0000", kind: "insight", content: "Short one", confidence: 0.4 },
    ],
    proposalCount: 2,
    state: { lastSessionAt: hoursAgo(30), activeProjects: ["web", "blog"], checkpointRef: null, queuedSessions: 2, seedVersion: "1.0.0" },
    ...overrides,
  };
}

export const contextOptions = (o: Partial<ContextOptions> = {}): ContextOptions => ({ budget: 2000, maxChars: 9500, mode: "full", ...o });
