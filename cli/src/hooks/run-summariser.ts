import { spawn } from "node:child_process";
import { hookLog } from "./hook-log";

/**
 * The configured summariser (`summariser` in ~/.config/baton/config.json or BATON_SUMMARISER): a
 * shell command given the transcript path on stdin (and in BATON_TRANSCRIPT_PATH) that prints the
 * handoff as markdown. Null when it fails, prints nothing or takes over two minutes; the
 * extractive handoff is used then.
 */
export function runSummariser(command: string, transcriptPath: string, cwd: string, sessionId: string | null): Promise<string | null> {
  return new Promise((resolve) => {
    let out = "";
    let settled = false;
    const done = (value: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const child = spawn(command, {
      shell: true,
      cwd,
      stdio: ["pipe", "pipe", "ignore"],
      env: { ...process.env, BATON_TRANSCRIPT_PATH: transcriptPath, BATON_SESSION_ID: sessionId ?? "" },
      windowsHide: true,
    });
    const timer = setTimeout(() => {
      hookLog(`summariser: no result within 120 s; killed`);
      child.kill("SIGKILL");
      done(null);
    }, 120_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.length > 200_000) child.kill("SIGKILL");
    });
    child.on("error", (error) => {
      hookLog(`summariser: ${error.message}`);
      done(null);
    });
    child.on("close", (code) => {
      if (code !== 0) hookLog(`summariser: exited with ${code}`);
      done(code === 0 && out.trim() ? out : null);
    });
    child.stdin.on("error", () => {});
    child.stdin.end(transcriptPath + "\n");
  });
}
