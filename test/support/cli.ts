import { spawn } from "node:child_process";
import path from "node:path";
import { runProcess } from "./run-process";
import { cleanEnv, ROOT } from "./server";

export type CliResult = { code: number | null; stdout: string; stderr: string; ms: number };

const BATON = path.join(ROOT, "cli/bin/baton.mjs");

/** Runs the real `baton` CLI as a child process. */
export function runCli(args: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliResult> {
  return runProcess(process.execPath, [BATON, ...args], { ...options, cwd: options.cwd ?? ROOT });
}

/** A CLI still running (`baton login` waiting for its approval): its output so far, and its end. */
export type RunningCli = {
  /** Resolves with the first match of `pattern` in stderr (where the CLI talks to people), or rejects after `timeoutMs`. */
  stderrMatch: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  done: Promise<CliResult>;
  kill: () => void;
};

/**
 * Starts the real `baton` CLI as a child process and hands it back while it runs; `script` runs another
 * entry point of it (the Claude Code plugin's launcher).
 */
export function startCli(args: string[], options: { env?: Record<string, string>; cwd?: string; script?: string } = {}): RunningCli {
  const started = performance.now();
  const child = spawn(process.execPath, [options.script ?? BATON, ...args], { cwd: options.cwd ?? ROOT, env: { ...cleanEnv(), ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
  const stderrMatch = async (pattern: RegExp, timeoutMs = 20_000) => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(stderr);
      if (match) return match;
      if (child.exitCode !== null || Date.now() > until) throw new Error(`no ${pattern} in the CLI's stderr (exit ${child.exitCode}):\n${stderr}\n${stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { stderrMatch, done, kill: () => child.kill() };
}
