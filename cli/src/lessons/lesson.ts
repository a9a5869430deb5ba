import type { EvidenceLine, LearningKind, LessonKind } from "../../../lib/rules";

export type { EvidenceLine };

/** A learning candidate from a session: what it says, the kind of learning and of lesson, how sure, and why. */
export type Lesson = {
  kind: Extract<LearningKind, "pattern" | "insight">;
  lesson: LessonKind;
  content: string;
  confidence: number;
  evidence: EvidenceLine[];
};

/** Two statements that differ only in case, spacing and punctuation say the same thing. */
export function proposalKey(content: string): string {
  return content.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}
