import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { ErrorReason } from "../../../lib/api/error-codes";
import { expectProjectOk, requireServer, resolveProject, type CommandProject, type ServerContext } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { frontMatterScalars, splitFrontMatter } from "../markdown/split-front-matter";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";
import { writeWhole } from "../output/write-whole";
import { blockTask, removeTaskBlock, upsertTaskBlock } from "./claude-md-block";
import { excludeFromGit } from "./git-exclude";
import { TASK_ID_PATTERN, TASK_ID_RULE, TASK_IMPORT_FILE } from "../../../lib/rules";

type Memory = { taskId: string; markdown: string; updatedAt: string; updatedBy: string | null; updatedByYou: boolean };

export function memoryTemplate(taskId: string): string {
  return `# ${taskId}\n\n## Goal\n\n## Notes\n\n## Next\n`;
}

export function memoryFileText(taskId: string, markdown: string, created: string, updated: string): string {
  return `---\ntask_id: ${taskId}\ncreated: ${created}\nupdated: ${updated}\n---\n\n${markdown.endsWith("\n") || !markdown ? markdown : `${markdown}\n`}`;
}

function checkedTaskId(value: string | undefined): string {
  if (!value) throw new CliError("a task id is required, e.g. baton task start task-368.", EXIT.usage);
  if (!TASK_ID_PATTERN.test(value)) throw new CliError(`"${value}" is not a task id. ${TASK_ID_RULE}`, EXIT.usage);
  return value;
}

async function serverMemory(ctx: ServerContext, slug: string, taskId: string): Promise<Memory | null> {
  const res = await ctx.call("GET", `/api/projects/${encodeURIComponent(slug)}/tasks/${encodeURIComponent(taskId)}/memory`);
  // Erased at build time: the bundle stays free of lib/, and the compiler still checks the reason's spelling.
  const noMemory: ErrorReason = "no_task_memory";
  if ((res.json as { error?: { reason?: string } } | undefined)?.error?.reason === noMemory) return null;
  return expectOk<{ memory: Memory }>(res, `cannot read the memory of ${taskId}`).memory;
}

const readIfExists = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : null);

/**
 * Writes only when the content changes, so running a command twice leaves files (and mtimes) alone;
 * whole or not at all (writeWhole): the developer's own CLAUDE.local.md is never left cut short.
 */
function writeIfChanged(file: string, before: string | null, after: string): boolean {
  if (before === after) return false;
  writeWhole(file, after);
  return true;
}

/** Where the block was kept before CLAUDE.local.md: a team's committed file, cleaned up on the next start or stop. */
const LEGACY_IMPORT_FILE = "CLAUDE.md";

/**
 * Writes the import file's new text: a file left empty by removing the block goes (Baton made it,
 * nothing of the developer's is in it). Whether it changed.
 */
function writeImportFile(file: string, before: string | null, after: string | null): boolean {
  if (after === null || before === after) return false;
  if (!after && before !== null) {
    rmSync(file);
    return true;
  }
  return writeIfChanged(file, before, after);
}

/** Takes the block out of CLAUDE.md where an earlier Baton put it; whether there was one. */
function removeLegacyBlock(root: string): boolean {
  const file = path.join(root, LEGACY_IMPORT_FILE);
  const before = readIfExists(file);
  return before !== null && writeIfChanged(file, before, removeTaskBlock(before));
}

async function start(ctx: ServerContext, project: CommandProject, taskId: string, root: string): Promise<number> {
  const base = `/api/projects/${encodeURIComponent(project.slug)}`;
  expectProjectOk(await ctx.call("PUT", `${base}/active-task`, { taskId }), `cannot set the active task`, project);
  const memory = await serverMemory(ctx, project.slug, taskId);
  const file = path.join(root, "backlog", "memory", `${taskId}.md`);
  const local = readIfExists(file);
  const localBody = local === null ? null : splitFrontMatter(local).body.replace(/^\n/, "");
  const memorySource: "server" | "template" | "local file" = local !== null ? "local file" : memory ? "server" : "template";
  // The server has the memory from the start (the file's, written offline or by hand, or the
  // template), so a session on another machine, or the dashboard, sees the task at once.
  const stored = memory ?? (await putMemory(ctx, base, taskId, localBody?.trim() ? localBody : memoryTemplate(taskId)));
  // The file says when the server's memory it holds was written (`updated:`): stop compares it.
  if (local === null) writeIfChanged(file, null, memoryFileText(taskId, stored.markdown, new Date().toISOString(), stored.updatedAt));
  // A file kept as it was that holds the server's memory (stored from it just now, or the same) gets its time.
  else if (stored.markdown === localBody) writeIfChanged(file, local, stamped(local, taskId, stored.updatedAt));
  // Claude Code reads the import file's imports as instructions: a memory someone else wrote last is not
  // imported (an import left from before goes), and the session-start context carries it, quoted.
  const importIt = !memory || memory.updatedByYou;
  const importFile = path.join(root, TASK_IMPORT_FILE);
  const before = readIfExists(importFile);
  const after = importIt ? upsertTaskBlock(before ?? "", taskId) : before === null ? null : removeTaskBlock(before);
  const changed = writeImportFile(importFile, before, after);
  const legacyRemoved = removeLegacyBlock(root);
  const rel = path.relative(root, file).split(path.sep).join("/");
  // Personal files stay out of `git status`: the import file, and a memory file written here now (one the team commits is theirs).
  const excluded = excludeFromGit(root, [TASK_IMPORT_FILE, ...(local === null ? [rel] : [])]);
  const storedNow = memory ? "already on the server" : "stored on the server now";
  const importLine = importIt
    ? `${TASK_IMPORT_FILE} ${changed ? "now imports" : "already imports"} @${rel}.`
    : `${TASK_IMPORT_FILE} does not import it: ${memory?.updatedBy ?? "someone else"} wrote the memory last, so the session-start context carries it as quoted text${changed ? " (the earlier import was removed)" : ""}.`;
  printResult(
    {
      taskId,
      project: project.slug,
      memoryFile: file,
      memorySource,
      memoryStored: !memory,
      importFile: changed ? "updated" : "unchanged",
      imported: importIt,
      memoryWrittenBy: memory ? memory.updatedBy : null,
      legacyImportRemoved: legacyRemoved,
      gitExcluded: excluded,
    },
    () =>
      [
        `Active task in ${project.slug}: ${taskId}.`,
        `Memory: ${rel} (${memorySource === "local file" ? "kept as it was" : `written from the ${memorySource}`}; ${storedNow}).`,
        importLine,
        legacyRemoved ? `${LEGACY_IMPORT_FILE} no longer holds Baton's import block (an earlier Baton wrote it there; ${TASK_IMPORT_FILE} has it now).` : null,
        excluded?.length ? `Kept out of git (.git/info/exclude): ${excluded.join(", ")}.` : null,
      ]
        .filter(Boolean)
        .join("\n"),
  );
  return EXIT.ok;
}

async function putMemory(ctx: ServerContext, base: string, taskId: string, markdown: string): Promise<Memory> {
  return expectOk<{ memory: Memory }>(await ctx.call("PUT", `${base}/tasks/${encodeURIComponent(taskId)}/memory`, { markdown }), "cannot store the memory").memory;
}

/**
 * What the agent wrote into the memory file during the task, saved to the server at stop, unless the
 * server's memory was written after the file was made (its `updated:`: by MCP, the dashboard, another
 * machine): then the newer one is not overwritten by a stale or diverged copy, and `newer` says whose it is.
 * A file saved gets the server's new time, so the next stop compares against it.
 */
async function saveMemoryFile(ctx: ServerContext, slug: string, taskId: string, file: string): Promise<{ saved: boolean; newer: Memory | null }> {
  const local = readIfExists(file);
  if (local === null) return { saved: false, newer: null };
  const { front, body: rest } = splitFrontMatter(local);
  const body = rest.replace(/^\n/, "");
  const memory = await serverMemory(ctx, slug, taskId);
  // An untouched template says nothing the server needs to keep.
  if (!body.trim() || body === memory?.markdown || (memory === null && body === memoryTemplate(taskId))) return { saved: false, newer: null };
  const facts = frontMatterScalars(front ?? "");
  const made = Date.parse(facts.updated ?? "");
  // A file without the time (written by hand) cannot tell: saved, as before.
  if (memory && Number.isFinite(made) && Date.parse(memory.updatedAt) > made) return { saved: false, newer: memory };
  const stored = await putMemory(ctx, `/api/projects/${encodeURIComponent(slug)}`, taskId, body);
  writeIfChanged(file, local, stamped(local, taskId, stored.updatedAt));
  return { saved: true, newer: null };
}

/** The memory file with `updated:` set to the server's time of the memory it holds; the rest of it as it was. */
function stamped(text: string, taskId: string, updatedAt: string): string {
  const { front, body } = splitFrontMatter(text);
  if (front === null) return memoryFileText(taskId, body.replace(/^\n/, ""), updatedAt, updatedAt);
  const line = `updated: ${updatedAt}`;
  const next = /^updated:.*$/m.test(front) ? front.replace(/^updated:.*$/m, line) : `${front}${front.endsWith("\n") || !front ? "" : "\n"}${line}\n`;
  return `---\n${next}---\n${body}`;
}

async function stop(ctx: ServerContext, project: CommandProject, taskId: string | undefined, root: string): Promise<number> {
  const base = `/api/projects/${encodeURIComponent(project.slug)}`;
  const importFile = path.join(root, TASK_IMPORT_FILE);
  const before = readIfExists(importFile);
  const id = taskId ?? blockTask(before ?? "") ?? blockTask(readIfExists(path.join(root, LEGACY_IMPORT_FILE)) ?? "");
  // What the agent wrote into the memory file during the task goes back to the server before the import is removed.
  const { saved, newer } = id ? await saveMemoryFile(ctx, project.slug, id, path.join(root, "backlog", "memory", `${id}.md`)) : { saved: false, newer: null };
  expectProjectOk(await ctx.call("DELETE", `${base}/active-task`), "cannot clear the active task", project);
  const changed = before !== null && writeImportFile(importFile, before, removeTaskBlock(before));
  const legacyRemoved = removeLegacyBlock(root);
  const kept = newer && `The memory file was not saved: the server's memory is newer (written${newer.updatedBy ? ` by ${newer.updatedBy}` : ""} at ${newer.updatedAt}, after this file was made), so it stays; the file stays too: compare them (baton task show ${id}).`;
  printResult({ taskId: id, project: project.slug, memorySaved: saved, newerOnServer: newer, importFile: changed ? "updated" : "unchanged", legacyImportRemoved: legacyRemoved }, () =>
    [
      `No active task in ${project.slug} now${id ? ` (was ${id})` : ""}.`,
      saved ? `The memory file's content was saved to the server.` : kept || null,
      changed || legacyRemoved ? `${TASK_IMPORT_FILE} no longer imports the task memory (the memory file stays).` : `${TASK_IMPORT_FILE} had no task import.`,
      legacyRemoved ? `${LEGACY_IMPORT_FILE} no longer holds Baton's import block (an earlier Baton wrote it there).` : null,
    ]
      .filter(Boolean)
      .join("\n"),
  );
  return EXIT.ok;
}

async function show(ctx: ServerContext, project: CommandProject, taskId: string | undefined, root: string): Promise<number> {
  const base = `/api/projects/${encodeURIComponent(project.slug)}`;
  const { activeTask } = expectProjectOk<{ activeTask: { taskId: string } | null }>(await ctx.call("GET", `${base}/active-task`), "cannot read the active task", project);
  const id = taskId ?? activeTask?.taskId;
  if (!id) throw new CliError(`no active task in ${project.slug}: name one (baton task show task-368) or start one (baton task start task-368).`, EXIT.notFound);
  const memory = await serverMemory(ctx, project.slug, id);
  const file = path.join(root, "backlog", "memory", `${id}.md`);
  const hasFile = existsSync(file);
  if (!memory && !hasFile) throw new CliError(`no memory for ${id} in ${project.slug}, on the server or in ${file}.`, EXIT.notFound);
  const active = activeTask?.taskId === id;
  printResult({ taskId: id, project: project.slug, active, memory, file: hasFile ? file : null }, () => {
    const head = `Task ${id} in ${project.slug}${active ? " (active)" : ""}${memory ? `, memory updated ${memory.updatedAt}` : ", no memory on the server"}${hasFile ? `; file ${path.relative(root, file)}` : ""}`;
    const text = memory?.markdown ?? splitFrontMatter(readFileSync(file, "utf8")).body;
    return `${head}\n\n${text}`;
  });
  return EXIT.ok;
}

/** `baton task start|stop|show [taskId]`. */
export async function runTask(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== "start" && sub !== "stop" && sub !== "show") throw new CliError(`unknown task command "${sub ?? ""}": use start, stop or show.`, EXIT.usage);
  const { values, positionals } = parseOptions(rest, { project: { type: "string" } }, 1);
  const taskId = sub === "start" ? checkedTaskId(positionals[0]) : positionals[0] === undefined ? undefined : checkedTaskId(positionals[0]);
  const ctx = requireServer();
  const project = await resolveProject(ctx, values.project);
  const root = ctx.config.repoRoot ?? ctx.config.cwd;
  if (sub === "start") return start(ctx, project, taskId!, root);
  if (sub === "stop") return stop(ctx, project, taskId, root);
  return show(ctx, project, taskId, root);
}
