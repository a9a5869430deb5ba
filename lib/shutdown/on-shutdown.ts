import { processWide } from "../process/process-state";

/**
 * What must be written before the process exits: the write-behind buffers (lib/process/write-behind.ts)
 * register here, and graceful shutdown (graceful-shutdown.ts) runs them all once requests in flight
 * have finished. Process-wide: route handlers and instrumentation are bundled apart.
 */
type Flush = () => Promise<void>;

const flushes = processWide("shutdown flushes", () => new Map<string, Flush>());

/** Registers (or replaces) the flush of one buffer, by name. */
export function onShutdown(name: string, flush: Flush): void {
  flushes.set(name, flush);
}

/** Runs every registered flush; a failing one is logged and the others still run. */
export async function runShutdownFlushes(): Promise<void> {
  await Promise.all(
    [...flushes].map(async ([name, flush]) => {
      try {
        await flush();
      } catch (error) {
        console.error(`baton: could not write ${name} at shutdown`, error);
      }
    }),
  );
}
