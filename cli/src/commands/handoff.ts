import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { SESSION_PRIORITIES } from "../../../lib/rules";
import { currentBranch } from "../config/git-info";
import { expectProjectOk, requireServer, resolveProject } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { parseOptions } from "../output/parse-options";
import { note, printResult } from "../output/print";
import { readStdin } from "../input/read-stdin";
import { repoRelative } from "./repo-path";

type Session = { id: string; project: string; priority: number; specs: string[]; files: string[]; markdown: string };
type Handoff = { id: string; project: string; markdown: string; sessionId: string | null; branch: string | null; author: string; createdAt: string };

const PRIORITY_NAMES: Record<number, string> = Object.fromEntries(Object.entries(SESSION_PRIORITIES).map(([name, value]) => [value, name]));
/** `baton handoff new` without -m reads its body from a pipe; a pipe silent this long is taken as empty. */
const PIPE_SILENCE_MS = 2000;

/** `2026-01-15_09-00-00-a1b2`: sorts by time like spx's ids, unique enough for two agents in one second. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace("T", "_").replace(/:/g, "-");
  return `${stamp}-${randomBytes(2).toString("hex")}`;
}

/** YAML front matter; JSON strings and arrays are valid YAML flow values, so no YAML library is needed. */
export function frontMatter(fields: Record<string, string | string[] | undefined>): string {
  const lines = ["---"];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || (Array.isArray(value) && !value.length)) continue;
    lines.push(`${key}: ${JSON.stringify(value)}`);
  }
  lines.push("---", "");
  return lines.join("\n");
}

async function handoffNew(args: string[]): Promise<number> {
  const { values } = parseOptions(args, {
    spec: { type: "string", multiple: true },
    file: { type: "string", multiple: true },
    priority: { type: "string" },
    title: { type: "string" },
    tag: { type: "string", multiple: true },
    id: { type: "string" },
    message: { type: "string", short: "m" },
    project: { type: "string" },
  });
  const { config, call } = requireServer();
  const root = config.repoRoot ?? config.cwd;
  const specs = (values.spec ?? []).map((p) => repoRelative(root, config.cwd, p, "--spec"));
  const files = (values.file ?? []).map((p) => repoRelative(root, config.cwd, p, "--file"));
  for (const p of [...specs, ...files]) if (!existsSync(path.join(root, p))) note(`warning: ${p} does not exist (yet); pickup will say so.`);
  const project = await resolveProject(config, values.project);
  const branch = config.repoRoot ? await currentBranch(config.cwd, 3000) : null;

  const body = values.message ?? (await readStdin({ silenceMs: PIPE_SILENCE_MS }));
  const title = values.title?.trim();
  const id = values.id ?? newSessionId();
  const markdown =
    frontMatter({
      id,
      priority: values.priority,
      tags: values.tag,
      branch: branch ?? undefined,
      specs,
      files,
      created_at: new Date().toISOString(),
      working_directory: config.cwd,
    }) +
    (title ? `\n# ${title}\n` : "") +
    (body.trim() ? `\n${body.replace(/^\n+/, "")}` : "");

  const res = await call("POST", `/api/projects/${encodeURIComponent(project.slug)}/sessions`, { markdown });
  const { session } = expectProjectOk<{ session: Session }>(res, "cannot queue the session", project);
  printResult(
    { session },
    `Queued session ${session.id} in ${session.project} (priority ${PRIORITY_NAMES[session.priority] ?? session.priority}; ${specs.length} spec${specs.length === 1 ? "" : "s"}, ${files.length} file${files.length === 1 ? "" : "s"}). Pick it up with: baton pickup ${session.id}`,
  );
  return EXIT.ok;
}

async function handoffShow(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { project: { type: "string" }, branch: { type: "string" } });
  const { config, call } = requireServer();
  const project = await resolveProject(config, values.project);
  const branch = values.branch ?? (config.repoRoot ? await currentBranch(config.cwd, 3000) : null);
  const query = branch ? `?branch=${encodeURIComponent(branch)}` : "";
  const res = await call("GET", `/api/projects/${encodeURIComponent(project.slug)}/handoffs/latest${query}`);
  const { handoff, matchedBranch } = expectOk<{ handoff: Handoff; matchedBranch: boolean }>(res, "no handoff to show");
  printResult({ handoff, matchedBranch }, () => {
    const facts = [handoff.createdAt, handoff.branch ? `branch ${handoff.branch}` : null, `by ${handoff.author}`].filter(Boolean).join(", ");
    return `Last handoff in ${handoff.project} (${facts})${branch && !matchedBranch ? ` — none on ${branch} yet` : ""}\n\n${handoff.markdown}`;
  });
  return EXIT.ok;
}

export async function runHandoff(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "new") return handoffNew(rest);
  if (sub === "show") return handoffShow(rest);
  throw new CliError(`unknown handoff command "${sub ?? ""}": use new or show.`, EXIT.usage);
}
