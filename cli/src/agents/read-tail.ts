import { readPart } from "../input/read-part";

/**
 * A transcript file's text; of a file over `maxBytes` only its end (where the session stands now), read
 * without loading the rest. The line cut at the start is not JSON, and every reader skips such lines.
 * Null when the file is missing, not a regular file (a FIFO would block the read) or unreadable (`onError`
 * hears why, unless it is simply not there).
 */
export function readTail(file: string | null, maxBytes: number, onError: (message: string) => void): string | null {
  if (!file) return null;
  try {
    const part = readPart(file, maxBytes, "end");
    if (!part) onError(`the transcript ${file} is not a regular file`);
    return part && part.bytes.toString("utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") onError(`cannot read the transcript ${file}: ${(error as Error).message}`);
    return null;
  }
}

/** Each line of JSONL that parses to an object; the rest (a cut first line, garbage) is skipped. */
export function* jsonLines(text: string): Generator<Record<string, unknown>> {
  for (const raw of text.split("\n")) {
    if (!raw.trim()) continue;
    try {
      const value: unknown = JSON.parse(raw);
      if (value && typeof value === "object" && !Array.isArray(value)) yield value as Record<string, unknown>;
    } catch {
      // not a line of the format
    }
  }
}

export const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
