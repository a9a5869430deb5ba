import { existsSync } from "node:fs";
import path from "node:path";
import { guessSlug, isSlug, projectHints, toSlug } from "../config/derive-project";
import { originUrl } from "../config/git-info";
import { loadConfig } from "../config/load-config";
import { requireServer } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { expectOk, type ApiCall } from "../http/api-client";
import { patientCall } from "./import-call";
import { parseOptions } from "../output/parse-options";
import { detectFormats, foundCount } from "./detect-formats";
import { importAmplifier, importSeeds, importSpx, importTaskMemories } from "./import-formats";
import { emptySummary, formatSummary, type ImportSummary } from "./import-summary";
import { progressBar } from "./progress-bar";

/** Makes sure a project exists and is writable, creating it (named like its slug) when missing. */
async function ensureProject(call: ApiCall, slug: string, summary: ImportSummary): Promise<void> {
  const res = await call("GET", `/api/projects/${encodeURIComponent(slug)}`);
  if (res.status === 200) return;
  if (res.status !== 404) expectOk(res, `cannot use project ${slug}`);
  expectOk(await call("POST", "/api/projects", { slug, name: slug }), `cannot create project ${slug}`);
  summary.projectsCreated.push(slug);
}

/**
 * The project a folder's files belong to: the configured one, else the one the server resolves there
 * for a session (its matchers among the user's projects, then the guess among them), else the guessed
 * slug, for a project the import then creates.
 */
async function projectOfDir(call: ApiCall, dir: string): Promise<string> {
  const config = loadConfig(dir);
  if (config.project) return config.project;
  const remote = config.repoRoot ? await originUrl(dir, 3000) : null;
  const where = { configured: null, remote, repoRoot: config.repoRoot, cwd: dir };
  const res = await call("GET", `/api/context/project?${new URLSearchParams(projectHints(where))}`);
  const resolved = expectOk<{ project: { slug: string } | null }>(res, `cannot tell the project of ${dir}`).project?.slug;
  const slug = resolved ?? guessSlug(where);
  if (!slug) throw new Error(`cannot tell the project of ${dir}: pass --project`);
  return slug;
}

/**
 * `baton import <path> [--project SLUG]`: the formats people already have, recognised by layout
 * (see detect-formats.ts). Idempotent through the server: seed items by their seed.json id,
 * handoffs by session id (skipped when unchanged), task memory compared before writing, spx
 * sessions by their file name as the document id (a repeat is a 409: already there when the project
 * holds the same document, a failure when it holds another one with that id).
 */
export async function runImport(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(args, { project: { type: "string" } }, 1);
  const target = positionals[0];
  if (!target) throw new CliError("name what to import: baton import <seed.json | folder>.", EXIT.usage);
  if (!existsSync(target)) throw new CliError(`${target} does not exist.`, EXIT.notFound);
  if (values.project && !isSlug(values.project)) throw new CliError(`--project must be a project slug, not "${values.project}".`, EXIT.usage);
  const found = detectFormats(target);
  if (!foundCount(found)) {
    throw new CliError(
      `nothing to import in ${target}: expected a seed.json, projects/<slug>/sessions/<id>/handoff.md, backlog/memory/<task-id>.md or .spx/sessions/{todo,doing,archive}/*.md.`,
      EXIT.notFound,
    );
  }
  // A large import meets the token's rate limit: it waits and goes on.
  const call = patientCall(requireServer().call);
  const summary = emptySummary();
  const bar = progressBar(foundCount(found));
  const ensured = new Map<string, Promise<void>>();
  const dirProjects = new Map<string, Promise<string>>();
  const ctx = {
    call,
    summary,
    tick: bar.tick,
    more: bar.more,
    async projectFor(hint: { slug?: string; repoDir?: string }): Promise<string> {
      let slug = values.project;
      if (!slug && hint.slug) {
        slug = toSlug(hint.slug) ?? undefined;
        if (!slug) throw new Error(`"${hint.slug}" cannot be a project slug: pass --project`);
      }
      if (!slug && hint.repoDir) {
        const dir = path.resolve(hint.repoDir);
        if (!dirProjects.has(dir)) dirProjects.set(dir, projectOfDir(call, dir));
        slug = await dirProjects.get(dir)!;
      }
      if (!slug) throw new Error("cannot tell the project: pass --project");
      if (!ensured.has(slug)) ensured.set(slug, ensureProject(call, slug, summary));
      await ensured.get(slug);
      return slug;
    },
  };
  try {
    await importSeeds(ctx, found.seeds);
    await importTaskMemories(ctx, found.memories);
    await importAmplifier(ctx, found.amplifier);
    await importSpx(ctx, found.spx);
  } finally {
    bar.done();
  }

  if (process.stdout.isTTY) process.stdout.write(`${formatSummary(summary)}\n`);
  else process.stdout.write(JSON.stringify({ ok: summary.errors.length === 0, summary }) + "\n");
  return summary.errors.length ? EXIT.failure : EXIT.ok;
}
