import { setTimeout as sleep } from "node:timers/promises";
import { readFileSync, statSync } from "node:fs";
import type { ApiCall } from "../http/api-client";

/** The most a file may weigh to be imported: more than any one request the server takes. */
export const MAX_IMPORT_FILE_BYTES = 16 * 1024 * 1024;

/** A file's text for the import; a file past MAX_IMPORT_FILE_BYTES is refused unread (it would be refused whole anyway). */
export function readImportFile(file: string): string {
  const { size } = statSync(file);
  if (size > MAX_IMPORT_FILE_BYTES) throw new Error(`${Math.round(size / 1024 / 1024)} MB is more than an import takes from one file (${MAX_IMPORT_FILE_BYTES / 1024 / 1024} MB)`);
  return readFileSync(file, "utf8").replace(/^\uFEFF/, "");
}

/** How long an import waits, in all, for the token's rate limit before a request counts as failed. */
const MAX_RATE_WAIT_MS = 120_000;

/**
 * `call` that waits out the token's rate limit (429: "try again in N s") and asks again, as a large
 * import meets it (a task memory is two requests), rather than failing the files past the limit.
 */
export function patientCall(call: ApiCall, wait: (ms: number) => Promise<unknown> = sleep): ApiCall {
  let waited = 0;
  return async (method, path, body, options) => {
    for (;;) {
      const res = await call(method, path, body, options);
      if (res.status !== 429 || waited >= MAX_RATE_WAIT_MS) return res;
      const seconds = Number(/try again in (\d+) s/.exec(res.text)?.[1] ?? 5);
      const ms = Math.min(Math.max(1, seconds) * 1000, MAX_RATE_WAIT_MS - waited);
      waited += ms;
      await wait(ms);
    }
  };
}
