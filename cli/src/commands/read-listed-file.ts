import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";
import { outsideRepository } from "../../../lib/sessions/repository-path";
import { readPart } from "../input/read-part";

/** A file a session document lists, read fresh from disk, or why it is not shown. */
export type ListedFile =
  /** `partial`: the file goes on past `content`, which is as much as the output can show. */
  | { path: string; status: "ok"; content: string; partial?: boolean }
  | { path: string; status: "missing" }
  | { path: string; status: "refused"; reason: string }
  | { path: string; status: "not-a-file" }
  | { path: string; status: "binary" }
  | { path: string; status: "unreadable"; reason: string };

function within(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  // `..env.example` is inside; `..` and `../x` are not.
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Only paths inside the repository: an absolute path, a `..` segment, or a path that resolves
 * outside the root through a symlink is refused, whatever the document says. A session document
 * can come from anyone in the project; pickup must not print ~/.ssh into an agent's context. At most
 * `maxBytes` of the file are read.
 */
export function readListedFile(root: string, listed: string, maxBytes: number): ListedFile {
  const outside = outsideRepository(listed);
  if (outside) return { path: listed, status: "refused", reason: `${outside}; only paths inside the repository are injected` };
  const full = path.join(root, ...listed.split(/[\\/]+/));
  try {
    lstatSync(full);
  } catch {
    return { path: listed, status: "missing" };
  }
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(full);
    realRoot = realpathSync(root);
  } catch {
    // A dangling symlink: nothing to read either way.
    return { path: listed, status: "missing" };
  }
  if (!within(realRoot, real)) return { path: listed, status: "refused", reason: "it resolves outside the repository (symlink)" };
  let start: ReturnType<typeof readPart>;
  try {
    start = readPart(real, maxBytes, "start");
  } catch (error) {
    // Pickup has claimed the session by now: a file it cannot read is said, never a crash.
    return { path: listed, status: "unreadable", reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
  if (!start) return { path: listed, status: "not-a-file" };
  if (start.bytes.subarray(0, 8000).includes(0)) return { path: listed, status: "binary" };
  return { path: listed, status: "ok", content: start.bytes.toString("utf8"), ...(start.partial ? { partial: true } : {}) };
}

/** Each path once, in the order listed (specs first). */
export function uniquePaths(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}
