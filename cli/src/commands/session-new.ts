import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { SESSION_PRIORITIES } from "../../../lib/rules";
import { currentBranch } from "../config/git-info";
import { expectProjectOk, requireServer, resolveProject } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { readStdin } from "../input/read-stdin";
import { parseOptions } from "../output/parse-options";
import { note, printResult } from "../output/print";
import { repoRelative } from "./repo-path";

export type Session = {
  id: string;
  project: string;
  status: string;
  priority: number;
  specs: string[];
  files: string[];
  markdown: string;
  branch?: string | null;
  workingDirectory?: string | null;
  tags?: string[];
  claimedBy: { name: string; email: string } | null;
  claimedAt: string | null;
  createdAt: string;
};

export const PRIORITY_NAMES: Record<number, string> = Object.fromEntries(Object.entries(SESSION_PRIORITIES).map(([name, value]) => [value, name]));
/** Without -m the body comes from a pipe; a pipe silent this long is taken as empty. */
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

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `baton session new`: queues a session document, its front matter written from the options and the repository. */
export async function sessionNew(args: string[]): Promise<number> {
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
  const ctx = requireServer();
  const { config, call } = ctx;
  const root = config.repoRoot ?? config.cwd;
  const specs = (values.spec ?? []).map((p) => repoRelative(root, config.cwd, p, "--spec"));
  const files = (values.file ?? []).map((p) => repoRelative(root, config.cwd, p, "--file"));
  const title = values.title?.trim();
  const body = values.message ?? (await readStdin({ silenceMs: PIPE_SILENCE_MS }));
  // The server refuses a document with nothing below its front matter; saying so here names the options.
  if (!title && !body.trim()) throw new CliError("the session document says nothing to do: give --title, -m TEXT, or the text on stdin.", EXIT.usage);
  for (const p of [...specs, ...files]) if (!existsSync(path.join(root, p))) note(`warning: ${p} does not exist (yet); pickup will say so.`);
  const project = await resolveProject(ctx, values.project);
  const branch = config.repoRoot ? await currentBranch(config.cwd, 3000) : null;

  const markdown =
    frontMatter({
      id: values.id ?? newSessionId(),
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
    `Queued session ${session.id} in ${session.project} (priority ${PRIORITY_NAMES[session.priority] ?? session.priority}; ${plural(specs.length, "spec")}, ${plural(files.length, "file")}). Pick it up with: baton pickup ${session.id}`,
  );
  return EXIT.ok;
}
