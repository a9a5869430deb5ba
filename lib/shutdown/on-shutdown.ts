/**
 * What must be written before the process exits: buffers that flush on a timer (served-context
 * bookkeeping, rate-limit counts) register here, and graceful shutdown (graceful-shutdown.ts)
 * runs them all once requests in flight have finished. Kept on globalThis: route handlers and
 * instrumentation are bundled apart and would otherwise each see their own registry.
 */
type Flush = () => Promise<void>;

const holder = globalThis as unknown as { __batonShutdownFlushes?: Map<string, Flush> };
const flushes = (holder.__batonShutdownFlushes ??= new Map());

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
