import { statSync } from "node:fs";
import path from "node:path";

const isFile = (file: string) => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** Where a shell finds a bare program name: the first folder of PATH holding it. */
const onShellPath = (name: string) => (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && isFile(path.join(dir, name)));

/**
 * What a hook command would start that is not on this machine: its program (a bare name looked up on
 * PATH, as the agent's shell would; a path, from `cwd`), or the script `node` is given. Null when both
 * are there, or when the command is more than plain words (a `$VAR`, `~`, a pipe): not second-guessed.
 * A teammate's committed settings naming their own checkout, or an old install whose checkout was
 * deleted, write hooks that fail at every session (`Cannot find module`) while looking installed.
 */
export function missingRunner(runner: string, cwd: string): string | null {
  if (/[$`~\\;&|<>()*?]/.test(runner)) return null;
  const words = [...runner.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  const [program, script] = words.slice(words.findIndex((w) => !/^\w+=/.test(w)));
  if (!program) return null;
  const there = (p: string) => (p.includes("/") ? isFile(path.resolve(cwd, p)) : onShellPath(p));
  if (!there(program)) return program;
  if (/(?:^|\/)node$/.test(program) && script && !script.startsWith("-") && !isFile(path.resolve(cwd, script))) return script;
  return null;
}
