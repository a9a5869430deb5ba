import { terminalSafe, writeText } from "./terminal-safe";

/**
 * A command's result: people at a terminal get `human`, scripts (stdout not a terminal) get the
 * data as one line of JSON.
 */
export function printResult(data: Record<string, unknown>, human: string | (() => string)): void {
  if (process.stdout.isTTY) {
    const text = terminalSafe(typeof human === "function" ? human() : human);
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  } else {
    process.stdout.write(JSON.stringify({ ok: true, ...data }) + "\n");
  }
}

/** Notes for people (warnings, progress): stderr, so stdout stays the result. */
export function note(message: string): void {
  writeText(process.stderr, `baton: ${message}\n`);
}
