import { processWide } from "./process-state";

/**
 * What must be written before the process exits: the write-behind buffers (write-behind.ts)
 * register their flushes here, and graceful shutdown (graceful-shutdown.ts) runs them all once
 * requests in flight have finished. A flush logs its own failure and never rejects.
 */
type Flush = () => Promise<void>;

const flushes = processWide("shutdown flushes", () => new Map<string, Flush>());

/** Registers (or replaces) the flush of one buffer, by name. */
export function onShutdown(name: string, flush: Flush): void {
  flushes.set(name, flush);
}

export async function runShutdownFlushes(): Promise<void> {
  await Promise.all([...flushes.values()].map((flush) => flush()));
}
