import { CliError, EXIT } from "../exit-codes";
import { ApiFailure, apiClient, expectOk, type ApiCall, type ApiResponse } from "../http/api-client";
import { note } from "../output/print";
import { deriveProject, isSlug, type DerivedProject } from "./derive-project";
import { git } from "./git-info";
import { loadConfig, type BatonConfig } from "./load-config";

/** Commands (not hooks) wait longer than the hooks' 2 s: an import can be large. */
const COMMAND_TIMEOUT_MS = 60_000;

export type ServerContext = { config: BatonConfig; call: ApiCall; url: string; token: string };

/** Configuration with a server to talk to, or a usage error saying how to configure one. */
export function requireServer(cwd = process.cwd()): ServerContext {
  const config = loadConfig(cwd);
  for (const warning of config.warnings) note(warning);
  if (!config.url) {
    throw new CliError(`no Baton server configured: set BATON_URL (and BATON_TOKEN), or url and token in ${config.userConfigFile}.`, EXIT.usage);
  }
  if (!config.token) throw new CliError(`no token for ${config.url}: set BATON_TOKEN, or token in ${config.userConfigFile}.`, EXIT.usage);
  return { config, url: config.url, token: config.token, call: apiClient({ url: config.url, token: config.token, timeoutMs: Math.max(config.timeoutMs, COMMAND_TIMEOUT_MS) }) };
}

/** `--project`, else configuration, else the git remote's repository name, else the directory name. */
export async function resolveProject(config: BatonConfig, flag: string | undefined): Promise<DerivedProject> {
  if (flag) {
    if (!isSlug(flag)) throw new CliError(`--project must be a project slug (lowercase letters, digits, dashes), not "${flag}".`, EXIT.usage);
    return { slug: flag, from: "config" };
  }
  const remote = config.repoRoot ? await git(["remote", "get-url", "origin"], config.cwd, 3000) : null;
  const project = deriveProject({ configured: config.project, remote, repoRoot: config.repoRoot, cwd: config.cwd });
  if (!project) throw new CliError("cannot tell the project: pass --project, or put {\"project\": \"slug\"} in .baton.json.", EXIT.usage);
  return project;
}

/** A 404 on a derived project says where the name came from and how to name another. */
export function projectHint(project: DerivedProject): string {
  return project.from === "config" ? "" : ` (project "${project.slug}" taken from the ${project.from}; set another with --project or .baton.json)`;
}

/** `expectOk` for a request about `project`: a 404 also says where the project's name came from. */
export function expectProjectOk<T = Record<string, unknown>>(res: ApiResponse, what: string, project: DerivedProject): T {
  try {
    return expectOk<T>(res, what);
  } catch (error) {
    if (error instanceof ApiFailure && res.status === 404) throw new CliError(`${error.message}${projectHint(project)}`, error.exitCode);
    throw error;
  }
}
