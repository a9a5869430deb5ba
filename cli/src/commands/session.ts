import { defuse, defuseLine } from "../../../lib/context/pack/fence";
import { SESSION_STATUSES } from "../../../lib/rules";
import { expectProjectOk, requireServer, resolveProject } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { splitFrontMatter } from "../markdown/split-front-matter";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";
import { runPickup } from "./pickup";
import { callSession } from "./session-call";
import { PRIORITY_NAMES, sessionNew, type Session } from "./session-new";

const DEFAULT_LIST_LIMIT = "50";

/** What a document is about, for a list: its first heading or line of text below the front matter. */
function titleOf(markdown: string): string {
  const line = splitFrontMatter(markdown).body.split("\n").find((l) => l.trim()) ?? "";
  return line.replace(/^#+\s*/, "").trim();
}

function listLine(s: Session): string {
  // The title and the claimer's name come from teammates: each defused onto the list's one line.
  const holder = s.status === "doing" && s.claimedBy ? ` · claimed by ${defuseLine(s.claimedBy.name)}` : "";
  return `${s.id}  ${s.status.padEnd(5)}  ${(PRIORITY_NAMES[s.priority] ?? String(s.priority)).padEnd(8)}  ${defuseLine(titleOf(s.markdown))}${holder}`;
}

/** `baton session list [--status S] [--project SLUG] [--limit N]`: the queue, first to be picked up first. */
async function sessionList(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { status: { type: "string" }, project: { type: "string" }, limit: { type: "string" } });
  if (values.status && !(SESSION_STATUSES as readonly string[]).includes(values.status)) {
    throw new CliError(`--status must be ${SESSION_STATUSES.join(", ")}, not "${values.status}".`, EXIT.usage);
  }
  const ctx = requireServer();
  const { call } = ctx;
  const project = await resolveProject(ctx, values.project);
  const params = new URLSearchParams({ limit: values.limit ?? DEFAULT_LIST_LIMIT });
  if (values.status) params.set("status", values.status);
  const res = await call("GET", `/api/projects/${encodeURIComponent(project.slug)}/sessions?${params}`);
  const { items: listed, nextCursor } = expectProjectOk<{ items: Session[]; nextCursor: string | null }>(res, "cannot list the sessions", project);
  // Teammates wrote the documents and the names: defused in the JSON too, which an agent often reads
  // (`baton pickup` quotes a document whole).
  const items = listed.map((s) => ({
    ...s,
    markdown: defuse(s.markdown),
    ...(typeof s.branch === "string" ? { branch: defuseLine(s.branch) } : {}),
    ...(typeof s.workingDirectory === "string" ? { workingDirectory: defuseLine(s.workingDirectory) } : {}),
    ...(Array.isArray(s.tags) ? { tags: s.tags.map(defuseLine) } : {}),
    specs: s.specs.map(defuseLine),
    files: s.files.map(defuseLine),
    claimedBy: s.claimedBy && { ...s.claimedBy, name: defuseLine(s.claimedBy.name) },
  }));
  printResult({ project: project.slug, items, nextCursor }, () =>
    items.length
      ? [`Session documents in ${project.slug}${values.status ? ` (${values.status})` : ""}, first to be picked up first:`, ...items.map(listLine), ...(nextCursor ? ["… more: --limit N"] : [])].join("\n")
      : `No session documents in ${project.slug}${values.status ? ` with status ${values.status}` : ""}.`,
  );
  return EXIT.ok;
}

/** `baton session complete|release <id> [--project SLUG]`: a claimed document done, or back in the queue. */
async function sessionFinish(verb: "complete" | "release", args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { project: { type: "string" } }, 1);
  const id = positionals[0];
  if (!id) throw new CliError(`a session id is required: baton session ${verb} <id> (pickup printed it: "Session claimed: <id>").`, EXIT.usage);
  const session = await callSession<Session>(requireServer(), values.project, id, verb, `cannot ${verb} session "${id}"`);
  printResult(
    { session },
    verb === "complete" ? `Session ${session.id} in ${session.project} is done.` : `Session ${session.id} in ${session.project} is back in the queue (todo).`,
  );
  return EXIT.ok;
}

const SUBCOMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  new: sessionNew,
  list: sessionList,
  pickup: runPickup,
  complete: (args) => sessionFinish("complete", args),
  release: (args) => sessionFinish("release", args),
};

/** `baton session new|list|pickup|complete|release`: queued session documents (handoffs are `baton handoff`). */
export async function runSession(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const run = sub !== undefined && Object.hasOwn(SUBCOMMANDS, sub) ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new CliError(`unknown session command "${sub ?? ""}": use ${Object.keys(SUBCOMMANDS).join(", ")}.`, EXIT.usage);
  return run(rest);
}
