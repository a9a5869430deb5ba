import { statSync } from "node:fs";
import path from "node:path";
import { onPath } from "../agents/find-agent";

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Words a shell runs itself, or that run the next word: nothing to find on disk. */
const SHELL_WORDS = new Set(["exec", "command", "builtin", "eval", "env", "nice", "nohup", "time", "sudo"]);

/**
 * What a hook command would start that is not on this machine: its program (a bare name looked up on
 * PATH as onPath does, as the agent's shell would; a path, from `cwd`), or the script `node` is given.
 * Null when both are there, or when the command is more than plain words (a `$VAR`, `~`, a pipe), starts
 * with a shell's own word, or runs on Windows (PATHEXT, drive letters): not second-guessed. A teammate's
 * committed settings naming their own checkout, or an old install whose checkout was deleted, write hooks
 * that fail at every session (`Cannot find module`) while looking installed.
 */
export function missingRunner(runner: string, cwd: string): string | null {
  if (process.platform === "win32" || /[$`~\\;&|<>()*?]/.test(runner)) return null;
  const words = [...runner.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const [program, script] = words.slice(Math.max(0, words.findIndex((w) => !/^\w+=/.test(w))));
  if (!program || /^\w+=/.test(program) || SHELL_WORDS.has(program)) return null;
  const there = (p: string) => (p.includes("/") ? isFile(path.resolve(cwd, p)) : onPath(p) !== null);
  if (!there(program)) return program;
  if (/(?:^|\/)node$/.test(program) && script && !script.startsWith("-") && !isFile(path.resolve(cwd, script))) return script;
  return null;
}
