import path from "node:path";
import { CliError, EXIT } from "../exit-codes";

/**
 * A path typed on the command line (relative to where the command runs, or absolute) as the
 * repository-relative, forward-slash path a session document lists; a path outside the repository
 * is a usage error, since pickup would refuse it anyway.
 */
export function repoRelative(root: string, cwd: string, typed: string, flag: string): string {
  const full = path.resolve(cwd, typed);
  const rel = path.relative(root, full);
  if (!rel || rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new CliError(`${flag} ${typed} is outside the repository (${root}); pickup only injects files inside it.`, EXIT.usage);
  }
  return rel.split(path.sep).join("/");
}
