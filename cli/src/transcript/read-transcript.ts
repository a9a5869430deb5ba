import { closeSync, openSync, readSync, statSync } from "node:fs";
import { parseTranscript, type Transcript } from "./parse-transcript";

/**
 * A transcript file, parsed; of a file over `maxBytes` only its end (where the session stands now),
 * read without loading the rest. The line cut at the start is not JSON and is skipped. Null when the
 * file is missing or unreadable (`onError` hears why).
 */
export function readTranscript(file: string | null, maxBytes: number, onError: (message: string) => void): Transcript | null {
  if (!file) return null;
  let fd: number | null = null;
  try {
    const size = statSync(file).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    fd = openSync(file, "r");
    let read = 0;
    while (read < length) {
      const n = readSync(fd, buffer, read, length - read, size - length + read);
      if (n === 0) break;
      read += n;
    }
    return parseTranscript(buffer.subarray(0, read).toString("utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") onError(`cannot read the transcript ${file}: ${(error as Error).message}`);
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
