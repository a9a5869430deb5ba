import path from "node:path";
import { MAX_QUERY_CHARS, SLUG_MAX, SLUG_PATTERN } from "../../../lib/rules";

/** Lowercase letters, digits and dashes, as a project slug must be; null when nothing is left. */
export function toSlug(name: string): string | null {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
  return slug && SLUG_PATTERN.test(slug) ? slug : null;
}

export function isSlug(value: string): boolean {
  return SLUG_PATTERN.test(value) && value.length <= SLUG_MAX;
}

/** The repository's name in a git remote however it is written (git@host:acme/web.git, https://host/acme/web, …). */
export function repoNameOfRemote(remote: string): string | null {
  const trimmed = remote.trim().replace(/[/\\]+$/, "").replace(/\.git$/i, "");
  const name = trimmed.split(/[/:\\]/).filter(Boolean).at(-1);
  return name ?? null;
}

/**
 * The slug a repository is most likely named by: the git remote's repository name, else the
 * directory's name. Only ever sent as a guess: the server takes it last, among the user's own projects.
 */
export function guessSlug(input: { remote: string | null; repoRoot: string | null; cwd: string }): string | null {
  const fromRemote = input.remote ? repoNameOfRemote(input.remote) : null;
  return (fromRemote ? toSlug(fromRemote) : null) ?? toSlug(path.basename(input.repoRoot ?? input.cwd));
}

/** What a client sends about where it runs (SPEC §3); the server decides the project from it (lib/context/project/choose-project.ts). */
export type ProjectHints = { project?: string; guess?: string; cwd?: string; remote?: string };

/**
 * The hints as sent: the configured slug (`.baton.json` or the user's config) as `project`, and
 * separately the guess, the directory and the remote; a value too long for the server is left out.
 */
export function projectHints(input: { configured: string | null; remote: string | null; repoRoot: string | null; cwd: string }): ProjectHints {
  const hints: ProjectHints = {};
  if (input.configured) hints.project = input.configured;
  const guess = guessSlug(input);
  if (guess) hints.guess = guess;
  if (input.cwd.length <= MAX_QUERY_CHARS) hints.cwd = input.cwd;
  if (input.remote && input.remote.length <= MAX_QUERY_CHARS) hints.remote = input.remote;
  return hints;
}
