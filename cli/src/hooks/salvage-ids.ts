// Loaded by session-end alone: the other hooks have no use for an input cut short.

/** The fields that say which session it was and where (every agent's spelling), short strings all. */
const ID_FIELDS = ["session_id", "sessionId", "transcript_path", "transcriptPath", "cwd", "hook_event_name", "model", "reason"];

/**
 * The session's ids from the start of an input cut short: each field's first string value (a field
 * named inside a string value has its quotes escaped, so it is not taken). Undefined without a session id.
 */
export function salvageIds(text: string): Record<string, unknown> | undefined {
  const found: Record<string, unknown> = {};
  for (const field of ID_FIELDS) {
    const match = new RegExp(`"${field}"\\s*:\\s*("(?:[^"\\\\\\n]|\\\\.){0,4096}")`).exec(text);
    if (!match) continue;
    try {
      found[field] = JSON.parse(match[1]!) as string;
    } catch {
      // not a JSON string after all
    }
  }
  return found.session_id || found.sessionId ? found : undefined;
}
