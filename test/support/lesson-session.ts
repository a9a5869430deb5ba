import { emptySession, toolCall, type SessionEvent } from "@/cli/src/agents/session";
import { extractLessons } from "@/cli/src/lessons/extract-lessons";

/**
 * Small sessions for the lesson extractor's unit tests (test/unit/lessons*.test.ts): each event at its
 * own minute, in the shape every transcript reader yields, and the lessons extracted from them.
 */
export const at = (n: number) => `2026-11-20T10:${String(n).padStart(2, "0")}:00.000Z`;
export const user = (text: string, n = 0): SessionEvent => ({ kind: "user", text, at: at(n) });
export const agent = (text: string, n = 0): SessionEvent => ({ kind: "assistant", text, at: at(n) });
export const shell = (command: string, failed: boolean, output: string, n = 0) => toolCall("Bash", { command }, at(n), { command, failed, output });
export const edit = (path: string, n = 0) => toolCall("Edit", { file_path: path }, at(n), { files: [{ path, how: "edited" }], failed: false, output: "ok" });
export const lessons = (...events: SessionEvent[]) => extractLessons({ ...emptySession("codex"), events });
