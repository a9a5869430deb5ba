import path from "node:path";
import { SLUG_MAX, SLUG_PATTERN } from "../../../lib/rules";

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

export type DerivedProject = { slug: string; from: "config" | "git remote" | "directory" };

/** The project: as configured, else the git remote's repository name, else the directory's name. */
export function deriveProject(input: { configured: string | null; remote: string | null; repoRoot: string | null; cwd: string }): DerivedProject | null {
  if (input.configured) return { slug: input.configured, from: "config" };
  const fromRemote = input.remote ? repoNameOfRemote(input.remote) : null;
  const remoteSlug = fromRemote ? toSlug(fromRemote) : null;
  if (remoteSlug) return { slug: remoteSlug, from: "git remote" };
  const dirSlug = toSlug(path.basename(input.repoRoot ?? input.cwd));
  return dirSlug ? { slug: dirSlug, from: "directory" } : null;
}
