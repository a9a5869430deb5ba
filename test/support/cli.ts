import { spawn } from "node:child_process";
import path from "node:path";
import { cleanEnv, ROOT } from "./server";

export type CliResult = { code: number | null; stdout: string; stderr: string; ms: number };

/** Runs the real `baton` CLI as a child process. */
export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "cli/bin/baton.mjs"), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...cleanEnv(), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.end(options.input ?? "");
  });
}
