export type SseEvent = { event: string; data: string };

/**
 * The events of a `text/event-stream` body, read as the HTML spec's parser reads them: lines end in
 * CRLF, LF or CR (a chunk may split a CRLF), `data:` lines of one event are joined with "\n", one
 * space after the colon is dropped, comments and unknown fields are skipped. A last event that the
 * stream ends without a blank line after is still handed on: the caller parses it and drops it if
 * it was cut short.
 */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  let hasData = false;

  const take = (line: string): SseEvent | null => {
    if (line === "") {
      const done = hasData ? { event: event || "message", data: data.join("\n") } : null;
      data = [];
      event = "";
      hasData = false;
      return done;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      hasData = true;
    } else if (field === "event") {
      event = value;
    }
    return null;
  };

  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const terminator = /\r\n|\r|\n/g;
      let consumed = 0;
      for (let match = terminator.exec(buffer); match; match = terminator.exec(buffer)) {
        // A CR at the end of a chunk may be the first half of a CRLF: wait for the next chunk.
        if (match[0] === "\r" && match.index === buffer.length - 1 && !done) break;
        const dispatched = take(buffer.slice(consumed, match.index));
        consumed = terminator.lastIndex;
        if (dispatched) yield dispatched;
      }
      buffer = buffer.slice(consumed);
      if (done) {
        if (buffer) take(buffer);
        const last = take("");
        if (last) yield last;
        return;
      }
    }
  } finally {
    // Stopping early (every request answered, or cancelled) must not leave the connection open.
    await reader.cancel().catch(() => undefined);
  }
}
