import { ApiError } from "../api/errors";
import type { Db } from "../db/client";
import { findProjectForUser, insertProject, listProjectsForUser, setInjectionPaused, type MemberProject } from "../db/queries/projects";
import type { Principal } from "../auth/principal";
import { newProjectSchema, projectUpdateSchema } from "./project-schemas";

const roleRank = { viewer: 0, member: 1, owner: 2 } as const;

export function listProjects(db: Db, principal: Principal): Promise<MemberProject[]> {
  return listProjectsForUser(db, { userId: principal.userId, onlyIds: principal.projectIds });
}

export async function createProject(db: Db, principal: Principal, input: unknown): Promise<MemberProject> {
  if (principal.projectIds) {
    throw new ApiError("forbidden", "This token is limited to some projects and cannot create new ones.");
  }
  const data = newProjectSchema.parse(input);
  const project = await db.transaction((tx) => insertProject(tx, { userId: principal.userId, id: crypto.randomUUID(), ...data }));
  if (!project) throw new ApiError("conflict", `A project with the slug "${data.slug}" already exists.`);
  return project;
}

/** An owner's change to a project: for now, pausing or resuming context injection. */
export async function updateProject(db: Db, principal: Principal, slug: string, input: unknown): Promise<MemberProject> {
  const project = await requireProject(db, principal, slug, "owner");
  const { injectionPaused } = projectUpdateSchema.parse(input);
  await setInjectionPaused(db, { projectId: project.id, paused: injectionPaused });
  return { ...project, injectionPaused };
}

/**
 * The project a request may touch, or an error: 404 when the user is not a member (its existence is
 * not revealed), 403 when the token is limited to other projects or the role is too low.
 */
export async function requireProject(
  db: Db,
  principal: Principal,
  slug: string,
  need: "read" | "write" | "owner" = "read",
): Promise<MemberProject> {
  return checkProjectAccess(await findProjectForUser(db, { userId: principal.userId, slug }), principal, slug, need);
}

/** requireProject's checks of a project already read (undefined: the user is not a member of one so named). */
export function checkProjectAccess(
  project: MemberProject | undefined,
  principal: Principal,
  slug: string,
  need: "read" | "write" | "owner" = "read",
): MemberProject {
  if (!project) throw new ApiError("not_found", `No project "${slug}" that you are a member of.`);
  if (principal.projectIds && !principal.projectIds.includes(project.id)) {
    throw new ApiError("forbidden", `This token may not touch the project "${slug}".`);
  }
  const needed = need === "read" ? "viewer" : need === "write" ? "member" : "owner";
  if (roleRank[project.role] < roleRank[needed]) {
    throw new ApiError("forbidden", `Your role in "${slug}" (${project.role}) may not do this.`);
  }
  return project;
}

/**
 * Ids of the projects a request may read (every membership) or write (member or owner), narrowed to
 * the token's projects when it is limited.
 */
export async function projectIdsFor(db: Db, principal: Principal, need: "read" | "write"): Promise<string[]> {
  const all = await listProjects(db, principal);
  return all.filter((p) => need === "read" || p.role !== "viewer").map((p) => p.id);
}
