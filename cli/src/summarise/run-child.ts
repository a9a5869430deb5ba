import { spawn } from "node:child_process";

/** The most of a summariser's output read (an agent's stdout, an endpoint's answer): a handoff and a few lessons are a few KB. */
export const MAX_OUTPUT = 1024 * 1024;

export type ChildRun = { ok: true; stdout: string } | { ok: false; problem: string };

/**
 * Runs a summariser: `input` on its stdin, its stdout read (up to 1 MB), within `limitMs`. In a process
 * group of its own, so that at the limit the whole of it goes (an agent's own children too). Never
 * throws: what went wrong is the answer.
 */
export function runChild(
  file: string,
  args: string[],
  options: { input: string; cwd: string; env: NodeJS.ProcessEnv; limitMs: number; shell?: boolean },
): Promise<ChildRun> {
  return new Promise((resolve) => {
    let out = "";
    let err = "";
    let settled = false;
    const done = (value: ChildRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, shell: options.shell ?? false, detached: true, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const timer = setTimeout(() => {
      kill();
      done({ ok: false, problem: `no answer within ${Math.round(options.limitMs / 1000)} s; stopped` });
    }, options.limitMs);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.length > MAX_OUTPUT) {
        kill();
        done({ ok: false, problem: "it printed more than 1 MB; stopped" });
      }
    });
    child.stderr.on("data", (d: Buffer) => {
      if (err.length < 2000) err += d.toString("utf8");
    });
    child.on("error", (error) => done({ ok: false, problem: error.message }));
    child.on("close", (code, signal) => {
      if (code === 0) done({ ok: true, stdout: out });
      else done({ ok: false, problem: `exited with ${code ?? signal}${err.trim() ? `: ${err.trim().replace(/\s+/g, " ").slice(0, 300)}` : ""}` });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
  });
}
