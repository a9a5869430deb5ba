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

/**
 * The transcript with only what a handoff is built from (buildHandoff), redacted: the user's and the
 * agent's words, each tool call's command, the files it changed and its todo list. A tool call's input
 * and output, which no handoff shows, are left out rather than redacted: on a long session they are most
 * of the text, and the pre-compact hook has its time limit (two seconds) to read, redact and send.
 */
export function redactHandoffFacts(transcript: Session, redactor: SecretRedactor): Session {
  const events = transcript.events.map((e): SessionEvent => {
    if (e.kind !== "tool") return { ...e, text: redactor.text(e.text) };
    return {
      ...e,
      input: {},
      output: null,
      command: e.command === null ? null : redactor.text(e.command),
      files: e.files.map((f) => ({ ...f, path: redactor.text(f.path) })),
      todos: e.todos && e.todos.map((t) => ({ ...t, content: redactor.text(t.content) })),
    };
  });
  return { ...transcript, events };
}
