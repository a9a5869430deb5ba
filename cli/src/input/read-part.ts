import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";

/**
 * At most `maxBytes` of a file, from its start or its end, without reading the rest (a file over 2 GiB
 * cannot be read whole at all), and whether the file goes on past them (the size may change while it
 * is read: one byte more than is kept is asked for). Null when it is not a regular file: checked before
 * it is opened, as opening a FIFO would wait for a writer and a device may never end. Throws what the
 * file system says (missing, no permission).
 */
export function readPart(file: string, maxBytes: number, from: "start" | "end"): { bytes: Buffer; partial: boolean } | null {
  if (!statSync(file).isFile()) return null;
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    // The end's part starts one byte early: that byte says whether there is more before it.
    const start = from === "start" ? 0 : Math.max(0, size - maxBytes - 1);
    let read = 0;
    for (let n = -1; n !== 0 && read < buffer.length; read += n) n = readSync(fd, buffer, read, buffer.length - read, start + read);
    const partial = read > maxBytes;
    const bytes = from === "start" ? buffer.subarray(0, Math.min(read, maxBytes)) : buffer.subarray(partial ? 1 : 0, read);
    return { bytes, partial };
  } finally {
    closeSync(fd);
  }
}
