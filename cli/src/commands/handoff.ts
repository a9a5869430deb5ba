import { byline, defuse, defuseLine, fenced } from "../../../lib/context/pack/fence";
import { currentBranch } from "../config/git-info";
import { expectProjectOk, requireServer, resolveProject } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { readStdin } from "../input/read-stdin";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";

type Handoff = { id: string; project: string; markdown: string; sessionId: string | null; branch: string | null; author: string; createdAt: string };

/** Without -m the handoff comes from a pipe; a pipe silent this long is taken as empty. */
const PIPE_SILENCE_MS = 2000;

/** `baton handoff write`: a handoff for the next session, on this branch unless told otherwise. */
async function handoffWrite(args: string[]): Promise<number> {
  const { values } = parseOptions(args, {
    message: { type: "string", short: "m" },
    branch: { type: "string" },
    "session-id": { type: "string" },
    project: { type: "string" },
  });
  const markdown = values.message ?? (await readStdin({ silenceMs: PIPE_SILENCE_MS }));
  if (!markdown.trim()) throw new CliError("the handoff is empty: give -m TEXT, or the markdown on stdin.", EXIT.usage);
  const ctx = requireServer();
  const { config, call } = ctx;
  const project = await resolveProject(ctx, values.project);
  const branch = values.branch ?? (config.repoRoot ? await currentBranch(config.cwd, 3000) : null);
  const body = { markdown, ...(branch ? { branch } : {}), ...(values["session-id"] ? { sessionId: values["session-id"] } : {}) };
  const res = await call("POST", `/api/projects/${encodeURIComponent(project.slug)}/handoffs`, body);
  const { handoff } = expectProjectOk<{ handoff: Handoff }>(res, "cannot write the handoff", project);
  printResult({ handoff }, `Handoff written in ${handoff.project}${handoff.branch ? ` (branch ${handoff.branch})` : ""}: the next session there starts with it.`);
  return EXIT.ok;
}

async function handoffShow(args: string[]): Promise<number> {
  const { values } = parseOptions(args, { project: { type: "string" }, branch: { type: "string" } });
  const ctx = requireServer();
  const { config, call } = ctx;
  const project = await resolveProject(ctx, values.project);
  const branch = values.branch ?? (config.repoRoot ? await currentBranch(config.cwd, 3000) : null);
  const query = branch ? `?branch=${encodeURIComponent(branch)}` : "";
  const res = await call("GET", `/api/projects/${encodeURIComponent(project.slug)}/handoffs/latest${query}`);
  const { handoff: given, matchedBranch } = expectOk<{ handoff: Handoff; matchedBranch: boolean }>(res, "no handoff to show");
  // A teammate wrote it, and an agent often reads this: its text cannot forge a host's tags or Baton's
  // headings (lib/context/pack/fence.ts), in the JSON too; shown to a person, it is quoted under who wrote it.
  const signedAs = (given as { signedAs?: unknown }).signedAs;
  const handoff = {
    ...given,
    markdown: defuse(given.markdown),
    author: defuseLine(given.author),
    branch: given.branch && defuseLine(given.branch),
    ...(typeof signedAs === "string" ? { signedAs: defuseLine(signedAs) } : {}),
  };
  printResult({ handoff, matchedBranch }, () => {
    const heading = fenced(`Last handoff in ${handoff.project}`, [handoff.createdAt, handoff.branch && `branch ${handoff.branch}`, byline(handoff.author)], given.markdown);
    return `${heading}${branch && !matchedBranch ? `\n(none on ${branch} yet)` : ""}`;
  });
  return EXIT.ok;
}

/** `baton handoff show|write`: end-of-session handoffs. Queued session documents are `baton session`. */
export async function runHandoff(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "show") return handoffShow(rest);
  if (sub === "write") return handoffWrite(rest);
  // `handoff new` once queued a session document: named for what it does now, so a handoff is never queued by mistake.
  if (sub === "new") throw new CliError('"baton handoff new" is now "baton session new" (it queues a session document); "baton handoff write" writes a handoff.', EXIT.usage);
  throw new CliError(`unknown handoff command "${sub ?? ""}": use show or write.`, EXIT.usage);
}
