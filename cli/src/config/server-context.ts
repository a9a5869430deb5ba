import { CliError, EXIT } from "../exit-codes";
import { ApiFailure, apiClient, expectOk, type ApiCall, type ApiResponse } from "../http/api-client";
import { note } from "../output/print";
import { isSlug, projectHints } from "./derive-project";
import { originUrl } from "./git-info";
import { configFileName, loadConfig, type BatonConfig } from "./load-config";

/** Commands (not hooks) wait longer than the hooks' 2 s: an import can be large. */
const COMMAND_TIMEOUT_MS = 60_000;

export type ServerContext = { config: BatonConfig; call: ApiCall; url: string; token: string };

/** Configuration with a server to talk to, or a usage error saying how to configure one. */
export function requireServer(cwd = process.cwd()): ServerContext {
  const config = loadConfig(cwd);
  for (const warning of config.warnings) note(warning);
  if (!config.url) {
    throw new CliError(`no Baton server configured: run \`baton login --url <server>\`, or set BATON_URL (and BATON_TOKEN), or url and token in ${configFileName(config.userConfigFile)}.`, EXIT.usage);
  }
  if (!config.token) throw new CliError(`no token for ${config.url}: run \`baton login\`, or set BATON_TOKEN, or token in ${configFileName(config.userConfigFile)}.`, EXIT.usage);
  return { config, url: config.url, token: config.token, call: apiClient({ url: config.url, token: config.token, caFile: config.caFile, timeoutMs: Math.max(config.timeoutMs, COMMAND_TIMEOUT_MS) }) };
}

/** A command's project: named (`--project` or configuration), or the one the server resolved for this repository. */
export type CommandProject = { slug: string; from: "named" | "server" };

/**
 * `--project`, else configuration, else the project the server resolves for this repository as it
 * does for a session (its matchers among the user's projects, then the guessed slug among them):
 * a slug guessed here is never taken as the project.
 */
export async function resolveProject(ctx: ServerContext, flag: string | undefined): Promise<CommandProject> {
  const { config, call } = ctx;
  if (flag) {
    if (!isSlug(flag)) throw new CliError(`--project must be a project slug (lowercase letters, digits, dashes), not "${flag}".`, EXIT.usage);
    return { slug: flag, from: "named" };
  }
  if (config.project) return { slug: config.project, from: "named" };
  const remote = config.repoRoot ? await originUrl(config.cwd, 3000) : null;
  const hints = projectHints({ configured: null, remote, repoRoot: config.repoRoot, cwd: config.cwd });
  const res = await call("GET", `/api/context/project?${new URLSearchParams(hints)}`);
  const { project } = expectOk<{ project: { slug: string } | null }>(res, "cannot tell the project");
  if (!project) {
    const tried = [remote ? `origin ${remote}` : null, `directory ${config.cwd}`].filter(Boolean).join(", ");
    throw new CliError(`no project of yours matches this repository (${tried}): pass --project, put {"project": "slug"} in .baton.json, or add a matcher to the project on the server.`, EXIT.notFound);
  }
  return { slug: project.slug, from: "server" };
}

/** A 404 on a project the server chose says so, and how to name another. */
export function projectHint(project: CommandProject): string {
  return project.from === "named" ? "" : ` (project "${project.slug}" matched to this repository by the server; set another with --project or .baton.json)`;
}

/** `expectOk` for a request about `project`: a 404 also says where the project's name came from. */
export function expectProjectOk<T = Record<string, unknown>>(res: ApiResponse, what: string, project: CommandProject): T {
  try {
    return expectOk<T>(res, what);
  } catch (error) {
    if (error instanceof ApiFailure && res.status === 404) throw new CliError(`${error.message}${projectHint(project)}`, error.exitCode);
    throw error;
  }
}
