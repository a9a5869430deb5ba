import type { SecretRedactor } from "../../../lib/secrets/redact-secrets";
import type { Session, SessionEvent } from "../agents/session";

/**
 * The transcript with every text the handoff and proposals draw on redacted: what the user typed,
 * what the assistant said, every string of every tool call (its input: commands, file contents, edits;
 * its output; the files it changed). Done before anything is cut to length, so no secret is ever split into a shape no pattern knows.
 */
export function redactTranscript(transcript: Session, redactor: SecretRedactor): Session {
  const events = transcript.events.map((e): SessionEvent => (e.kind === "tool" ? redactor.deep(e) : { ...e, text: redactor.text(e.text) }));
  return { ...transcript, events };
}
