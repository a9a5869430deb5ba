import { homeFolder } from "../config/home";
import { existsSync } from "node:fs";
import { AGENTS } from "../agents/agents";
import type { InstallContext, Installer } from "../agents/agent";
import { onPath } from "../agents/find-agent";
import { projectHints } from "../config/derive-project";
import { originUrl } from "../config/git-info";
import { configFileName, loadConfig, type BatonConfig } from "../config/load-config";
import { EXIT } from "../exit-codes";
import { apiClient, errorMessage, expectOk, failureOf, isBatonAnswer, notBatonDetail, Unreachable, type ApiResponse } from "../http/api-client";
import type { Trust } from "../http/server-fetch";
import { installCommand } from "../http/version-check";
import { CLI_VERSION } from "../version";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";
import { AGENT_LABELS, AGENT_NAMES, type AgentName } from "../../../lib/rules";
import { describeSummariser, parseSummariser } from "../summarise/summariser-config";
import { defaultCommand } from "./install";
import { missingRunner } from "./missing-runner";
import { installedCommands } from "./installed-commands";
import { pluginEnabledIn } from "../agents/claude/plugin-enabled";

/** What `baton doctor` found about the server: reachable (health answers), answering (the token is taken and the context routes answer for this repository). */
type ServerCheck = {
  url: string | null;
  reachable: boolean;
  version: string | null;
  /** This CLI's version, beside the server's (asked every time: the request's own notice comes once a day). */
  cliVersion: string;
  answering: boolean;
  /** The project this repository's sessions get, when the server answered (null: personal). */
  project: string | null;
  problem: string | null;
  exit: number;
};

/** `notes`: what is worth knowing though Baton is installed (its hooks run another command than this CLI would write). */
type AgentCheck = { agent: AgentName; label: string; found: string | null; installed: Record<string, boolean>; pending: string[]; notes: string[]; problems: string[] };

const DOCTOR_TIMEOUT_MS = 5000;

async function checkServer(config: BatonConfig): Promise<ServerCheck> {
  const check: ServerCheck = { url: config.url, reachable: false, version: null, cliVersion: CLI_VERSION, answering: false, project: null, problem: null, exit: EXIT.ok };
  if (!config.url) return { ...check, problem: `no server configured: run \`baton login --url <server>\`, or set BATON_URL and BATON_TOKEN, or url and token in ${configFileName(config.userConfigFile)}`, exit: EXIT.usage };
  const call = apiClient({ url: config.url, token: config.token, caFile: config.caFile, timeoutMs: DOCTOR_TIMEOUT_MS });
  try {
    const health = await call("GET", "/api/health");
    // An SSO page, a captive portal or a wrong path answers too: only Baton's JSON says Baton is there.
    if (health.status === 200 && !isBatonAnswer(health)) throw new Unreachable(config.url, "not-baton", notBatonDetail(health));
    const down = health.status === 200 ? null : failure(health, `${config.url}/api/health answered ${health.status}: ${errorMessage(health)}`);
    check.reachable = true;
    check.version = (health.json as { version?: string } | undefined)?.version ?? null;
    if (down) return { ...check, ...down };
    if (!config.token) return { ...check, problem: `no token for ${config.url}: run \`baton login\`, or set BATON_TOKEN, or token in ${configFileName(config.userConfigFile)}`, exit: EXIT.usage };
    // The question the hooks ask first: which project a session here belongs to.
    const remote = config.repoRoot && !config.project ? await originUrl(config.cwd, 3000) : null;
    const hints = projectHints({ configured: config.project, remote, repoRoot: config.repoRoot, cwd: config.cwd });
    const res = await call("GET", `/api/context/project?${new URLSearchParams(hints)}`);
    if (res.status === 401) return { ...check, problem: `the token was refused by ${config.url} (401): run \`baton login\``, exit: EXIT.unauthorized };
    if (res.status !== 200) return { ...check, ...failure(res, `${config.url} answered ${res.status}: ${errorMessage(res)}`) };
    const { project } = expectOk<{ project?: { slug?: string } | null }>(res, `${config.url} cannot tell the project`);
    return { ...check, answering: true, project: project?.slug ?? null };
  } catch (error) {
    if (error instanceof Unreachable) return { ...check, problem: error.message, exit: EXIT.unreachable };
    throw error;
  }
}

/**
 * A non-200 answer classified as every other command does (failureOf): a gateway's own 502/503/504 page
 * is the server not reached (thrown: exit 5), a 401 that is no Baton JSON exits 6 as `whoami` does,
 * Baton's own error by its status.
 */
function failure(res: ApiResponse, problem: string): { problem: string; exit: number } {
  const failed = failureOf(res, problem);
  if (failed instanceof Unreachable) throw failed;
  return { problem, exit: failed?.exitCode ?? EXIT.failure };
}

/**
 * Whether Baton is installed in one scope of an agent: what `baton install` would change there now.
 * Baton's hooks written with another command (`baton install --command bt`) are installed as well,
 * the difference said in a note.
 */
function checkScope(installer: Installer, context: InstallContext): { pending: string[]; note: string | null; problem: string | null } {
  const pendingWith = (command: string) => {
    const plan = installer.plan({ ...context, command });
    return { plan, pending: plan.files.flatMap((f) => f.changes) };
  };
  const { plan, pending } = pendingWith(context.command);
  if (!pending.length) return { pending, note: null, problem: cannotRun(context.command, context) };
  for (const command of installedCommands(plan.files)) {
    if (command !== context.command && !pendingWith(command).pending.length) {
      return { pending: [], note: `${context.scope}: Baton's hooks run \`${command}\`; \`baton install\` here would write \`${context.command}\``, problem: cannotRun(command, context) };
    }
  }
  return { pending, note: null, problem: null };
}

/** Installed hooks whose command is not on this machine: they fail at every session, however installed they look. */
function cannotRun(command: string, context: InstallContext): string | null {
  const missing = missingRunner(command, context.root);
  return missing ? `${context.scope}: Baton's hooks run \`${command}\`, and ${missing} is not on this machine (PATH, or no such file): they cannot run` : null;
}

/** For each agent on this machine: whether Baton's hooks and MCP entry are in its configuration, per scope. */
async function checkAgents(config: BatonConfig): Promise<AgentCheck[]> {
  const home = homeFolder();
  if (!home) return [];
  const checks: AgentCheck[] = [];
  for (const agent of AGENT_NAMES) {
    const installer = await AGENTS[agent].installer();
    const found = installer.found({ home });
    const check: AgentCheck = { agent, label: AGENT_LABELS[agent], found, installed: {}, pending: [], notes: [], problems: [] };
    if (found && config.url) {
      // Claude Code's plugin brings the hooks and the MCP server wherever it is enabled.
      const plugin = agent === "claude" ? pluginEnabledIn({ home, root: config.repoRoot ?? config.cwd }) : null;
      if (plugin) {
        check.installed.plugin = true;
        check.notes.push(`the Baton plugin is enabled in ${plugin}`);
      }
      for (const scope of installer.scopes) {
        try {
          const { pending, note, problem } = checkScope(installer, { command: defaultCommand(), url: config.url.replace(/\/+$/, ""), scope, home, root: config.repoRoot ?? config.cwd });
          check.installed[scope] = pending.length === 0;
          if (pending.length) check.pending.push(...pending.map((c) => `${scope}: ${c}`));
          if (note) check.notes.push(note);
          if (problem) check.problems.push(problem);
        } catch (error) {
          check.installed[scope] = false;
          check.pending.push(`${scope}: ${(error as Error).message}`);
        }
      }
    }
    checks.push(check);
  }
  return checks;
}

/** The summariser set (off when none): what it asks, whether an agent it runs is found, or why the setting is ignored. */
type SummariserCheck = { setting: string | null; problem: string | null };

function checkSummariser(config: BatonConfig): SummariserCheck {
  const parsed = parseSummariser(config.summariser);
  if (!parsed.ok) return { setting: null, problem: `the summariser setting is ignored (${parsed.problem}); the extractive handoff and lessons are sent` };
  const { spec } = parsed;
  if (!spec) return { setting: null, problem: null };
  const setting = describeSummariser(spec);
  if (spec.use === "claude" || spec.use === "codex" || spec.use === "gemini") {
    const command = spec.command ?? spec.use;
    if (!(command.includes("/") ? existsSync(command) : onPath(command))) return { setting, problem: `${command} is not found${command.includes("/") ? "" : " on PATH"}: the extractive result is sent until it is` };
  }
  return { setting, problem: null };
}

function summariserLine(s: SummariserCheck): string {
  if (s.problem) return `Summariser: ${s.problem}`;
  return s.setting ? `Summariser: ${s.setting}` : "Summariser: off (the handoff and lessons are extracted from the transcript)";
}

function serverLines(s: ServerCheck, trust: Trust): string[] {
  if (!s.url || !s.reachable) return [`Server: ${s.problem}`];
  const where = s.answering ? `answering; sessions here go to ${s.project ? `project ${s.project}` : "your personal context"}` : s.problem;
  const line = `Server: ${s.url} (Baton ${s.version ?? "?"}): reachable, ${where}`;
  if (!s.version || s.version === s.cliVersion) return [line];
  return [line, `Version: this CLI is Baton ${s.cliVersion}, the server runs ${s.version}; update: ${installCommand(s.url, trust)}`];
}

function agentLine(a: AgentCheck): string {
  const name = a.label.padEnd(12);
  if (!a.found) return `  ${name} not found on this machine`;
  const scopes = Object.entries(a.installed);
  if (!scopes.length) return `  ${name} ${a.found}: cannot check without a server URL`;
  const installedIn = scopes.filter(([, ok]) => ok).map(([scope]) => scope);
  const notes = a.notes.map((n) => `\n  ${"".padEnd(12)}   note: ${n}`).join("");
  // A repository's settings may be shared: `--command baton` writes a command every teammate's machine has.
  const fix = (p: string) => (p.startsWith("repo:") ? `run baton install ${a.agent} (--command baton, where the repository's settings are shared)` : `run baton install ${a.agent}`);
  const problems = a.problems.map((p) => `\n  ${"".padEnd(12)}   problem: ${p}; ${fix(p)}`).join("");
  if (installedIn.length) return `  ${name} ${a.found}: Baton installed (${installedIn.join(", ")} configuration)${notes}${problems}`;
  return `  ${name} ${a.found}: Baton not installed or out of date (${a.pending.length} change${a.pending.length === 1 ? "" : "s"} pending): run baton install ${a.agent}`;
}

/**
 * `baton doctor`: whether this machine's agents will get Baton's context. The server (reachable,
 * the token taken, the project sessions here get), then each agent found on the machine: whether
 * Baton's hooks and MCP entry are in its configuration; and the summariser, when one is set. Exit 0 when all is well, else the code of the
 * first problem (5 unreachable, 6 token refused, 2 not configured, 1 an agent found without Baton).
 */
export async function runDoctor(args: string[]): Promise<number> {
  parseOptions(args, {});
  const config = loadConfig();
  const [server, agents] = await Promise.all([checkServer(config), checkAgents(config)]);
  const summariser = checkSummariser(config);
  const missing = agents.filter((a) => (a.found && Object.keys(a.installed).length && !Object.values(a.installed).some(Boolean)) || a.problems.length);
  const exit = server.exit !== EXIT.ok ? server.exit : missing.length ? EXIT.failure : EXIT.ok;
  // The report is printed whatever it found: a script reading its "ok" must learn what the exit code says.
  printResult({ ok: exit === EXIT.ok, server, agents, summariser, warnings: config.warnings }, () =>
    [...serverLines(server, config), "Agents:", ...agents.map(agentLine), summariserLine(summariser), ...config.warnings.map((w) => `Warning: ${w}`)].join("\n"),
  );
  return exit;
}
