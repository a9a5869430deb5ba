// Shared by the hooks that answer Claude Code on stdout: node built-ins only.

let answered = false;

/**
 * Prints the hook's answer (possibly nothing) once and exits 0: nothing after the first answer may
 * write or keep the agent waiting. Claude Code gone (a closed pipe) is no reason to fail either.
 */
export function answerOnce(body: string): void {
  if (answered) return;
  answered = true;
  process.stdout.on("error", () => process.exit(0));
  process.stdout.write(body, () => process.exit(0));
}

/** At `ms`, whatever is still pending: `onTimeout` says so (it may answer), then the hook exits 0 having printed nothing more. */
export function answerBy(ms: number, onTimeout: () => void): void {
  setTimeout(() => {
    if (answered) return;
    onTimeout();
    answerOnce("");
  }, ms).unref?.();
}
