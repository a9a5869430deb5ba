import type { Session } from "../agents/session";
import type { WrittenSummary } from "../transcript/build-handoff";
import type { Lesson } from "../lessons/lesson";
import { evidenceOf } from "../lessons/session-lines";
import { cut, oneLine } from "../../../lib/text/cut";
import { AGENT_LABELS } from "../../../lib/rules";
import { askAgent, askEndpoint } from "./ask-model";
import { sessionText } from "./session-text";
import { readSummaryAnswer, SUMMARY_INSTRUCTIONS, type ModelLesson } from "./summary-answer";
import type { AgentSpec, EndpointSpec } from "./summariser-config";

/** What a model made of a session: the handoff's sections, and lessons with evidence from the transcript. */
export type ModelSummary = { summary: WrittenSummary; lessons: Lesson[] };

/** The most a model's confidence counts for: a person still reviews every lesson. */
const MAX_CONFIDENCE = 0.9;
/** Below this the model itself doubts it. */
const MIN_CONFIDENCE = 0.3;

/**
 * A lesson as the worker proposes it: the evidence is the transcript's own (redacted) lines the model
 * cited, never the model's text, and a lesson citing no line of the session is left out.
 */
function lessonOf(candidate: ModelLesson, session: Session): Lesson | null {
  const evidence = evidenceOf(session, candidate.evidence.filter((turn) => turn < session.events.length));
  if (!evidence.length || candidate.confidence < MIN_CONFIDENCE) return null;
  return {
    kind: candidate.kind === "correction" ? "pattern" : "insight",
    lesson: candidate.kind,
    content: cut(oneLine(candidate.lesson), 500),
    confidence: Math.min(MAX_CONFIDENCE, candidate.confidence),
    evidence,
  };
}

/**
 * Asks the configured model about the (already redacted) session. Null, with the reason logged, when
 * it cannot answer in time or answers something else than the summary asked for: the caller then
 * uses the extractive result.
 */
export async function summariseSession(spec: AgentSpec | EndpointSpec, session: Session, log: (message: string) => void): Promise<ModelSummary | null> {
  if (!session.events.some((e) => e.kind === "user")) return null;
  const text = sessionText(session);
  const asked = spec.use === "openai" ? await askEndpoint(spec, SUMMARY_INSTRUCTIONS, text) : await askAgent(spec, `${SUMMARY_INSTRUCTIONS}\n\n<session>\n${text}\n</session>\n`);
  if (!asked.ok) {
    log(`summariser (${spec.use}): ${asked.problem}; using the extractive result`);
    return null;
  }
  const read = readSummaryAnswer(asked.text);
  if (!read.ok) {
    log(`summariser (${spec.use}): not the answer asked for (${read.problem}); using the extractive result`);
    return null;
  }
  const { handoff, lessons: candidates, leftOut } = read.answer;
  const lessons = candidates.map((c) => lessonOf(c, session)).filter((l): l is Lesson => l !== null);
  const dropped = leftOut + candidates.length - lessons.length;
  if (dropped) log(`summariser (${spec.use}): ${dropped} lesson candidate(s) left out (malformed, unsure, or citing no line of the session)`);
  const by = spec.use === "openai" ? spec.model : `${AGENT_LABELS[spec.use]}${spec.model ? ` (${spec.model})` : ""}`;
  return { summary: { by, ...handoff }, lessons: lessons.sort((a, b) => b.confidence - a.confidence) };
}
