import type { LearningKind, LessonKind } from "../../../lib/rules";

/** One line a lesson came from: its place in the session, when, who said it, and the text (cut). */
export type EvidenceLine = { turn: number; at: string | null; who: "user" | "assistant" | "tool"; text: string };

/** A learning candidate from a session: what it says, the kind of learning and of lesson, how sure, and why. */
export type Lesson = {
  kind: Extract<LearningKind, "pattern" | "insight">;
  lesson: LessonKind;
  content: string;
  confidence: number;
  evidence: EvidenceLine[];
};
