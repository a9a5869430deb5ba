import { spawn } from "node:child_process";
import type { CliResult } from "./cli";
import { cleanEnv } from "./server";

/**
 * Runs any program as a child process (a downloaded CLI, `sh` with install.sh, Claude Code) in the
 * clean test environment plus `env`, with `input` on stdin.
 */
export function runProcess(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...cleanEnv(), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: options.timeoutMs,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}
