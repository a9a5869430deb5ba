import { runShutdownFlushes } from "./on-shutdown";

// A flush that hangs (an unreachable database) must not keep a stopping server alive for ever.
const FLUSH_TIMEOUT_MS = 5000;

/**
 * On SIGTERM or SIGINT, `next start` stops accepting connections, waits for the requests in flight to
 * finish, and then calls process.exit. The buffers must be written between those two steps: after
 * the last request has added to them, before the process ends. So from the signal on, the exit is
 * held until every registered flush has run (at most FLUSH_TIMEOUT_MS).
 */
export function installGracefulShutdown(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, holdExitForFlushes);
}

let held = false;

function holdExitForFlushes(): void {
  if (held) return;
  held = true;
  const exit = process.exit.bind(process);
  let exiting = false;
  process.exit = ((code?: number | string | null) => {
    if (exiting) return undefined as never;
    exiting = true;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, FLUSH_TIMEOUT_MS).unref());
    void Promise.race([runShutdownFlushes(), timeout]).finally(() => exit(code));
    return undefined as never;
  }) as typeof process.exit;
}
