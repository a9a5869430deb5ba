import path from "node:path";
import { runProcess } from "./run-process";
import { ROOT } from "./server";

export type CliResult = { code: number | null; stdout: string; stderr: string; ms: number };

/** Runs the real `baton` CLI as a child process. */
export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
  return runProcess(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), ...args], { ...options, cwd: options.cwd ?? ROOT });
}
