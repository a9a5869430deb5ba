import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { projectChoicesRead } from "../db/queries/context";
import type { MemberProject } from "../db/queries/projects";
import type { MatcherKind } from "../db/schema";
import { checkProjectAccess } from "../projects/projects";
import type { ContextQuery } from "./context-query";
import { directoryName, matchProject } from "./match-project";

/** A project the user is a member of, with one of its matchers (null: none, or the project named). */
export type ProjectChoice = MemberProject & { matcherKind: MatcherKind | null; matcherPattern: string | null };

export type ProjectHints = Pick<ContextQuery, "project" | "cwd" | "remote">;

/** Whether the hints could name a project at all; without any, the context is personal. */
export function hintsNameProject(q: ProjectHints): boolean {
  return Boolean(q.project || q.cwd || q.remote);
}

/** The read of what chooseProject picks from for these hints (the project named, else every one a matcher or the directory could name). */
export function projectChoicesFor(db: Db, principal: Principal, q: ProjectHints) {
  return projectChoicesRead(db, { userId: principal.userId, slug: q.project, dirSlug: q.cwd ? directoryName(q.cwd) : null });
}

/**
 * The project named (or a 404/403, as requireProject answers), else the one a matcher finds for
 * cwd/remote, else one named like the directory; null: a personal context. `choices` are what
 * projectChoicesFor read for these hints.
 */
export function chooseProject(choices: ProjectChoice[], principal: Principal, q: ProjectHints): MemberProject | null {
  const bySlug = (slug: string) => {
    const found = choices.find((c) => c.slug === slug);
    return found && { id: found.id, slug: found.slug, name: found.name, role: found.role, injectionPaused: found.injectionPaused, createdAt: found.createdAt };
  };
  if (q.project) return checkProjectAccess(bySlug(q.project), principal, q.project);
  const matchers = choices.filter((c) => c.matcherKind && c.matcherPattern).map((c) => ({ slug: c.slug, kind: c.matcherKind!, pattern: c.matcherPattern! }));
  const slug = matchProject(matchers, { cwd: q.cwd ?? null, remote: q.remote ?? null }) ?? (q.cwd ? directoryName(q.cwd) : null);
  const project = slug ? bySlug(slug) : undefined;
  if (!project || (principal.projectIds && !principal.projectIds.includes(project.id))) return null;
  return project;
}
