import type { SecretRedactor } from "../../../lib/secrets/redact-secrets";
import type { Transcript, TranscriptEvent } from "./parse-transcript";

/**
 * The transcript with every text the handoff and proposals draw on redacted: what the user typed,
 * what the assistant said, every string of every tool call's input (commands, file contents, edits).
 * Done before anything is cut to length, so no secret is ever split into a shape no pattern knows.
 */
export function redactTranscript(transcript: Transcript, redactor: SecretRedactor): Transcript {
  const events = transcript.events.map((e): TranscriptEvent => (e.kind === "tool" ? { ...e, input: redactor.deep(e.input) } : { ...e, text: redactor.text(e.text) }));
  return { ...transcript, events };
}
