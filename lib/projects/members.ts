import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { deleteMember, findMember, insertMember, listMembers as listMemberRows, updateMemberRole, type MemberRow } from "../db/queries/members";
import { findUserByEmail, getUser } from "../db/queries/users";
import { PROJECT_ROLES } from "../rules";
import { requireProject } from "./projects";

// Members of a project: anyone in it may see who else is; only owners change who is and with what role,
// and a project never loses its last owner.
//
// Inviting someone who has no account yet is not a pending invitation (that would need a table and
// mail): the operator creates the account with `baton admin create-user`, and an owner adds it here.

export const addMemberSchema = z.object({
  email: z.email({ message: "Enter the person's email address." }).max(254),
  role: z.enum(PROJECT_ROLES),
});
export const changeRoleSchema = z.object({ userId: z.string().min(1).max(100), role: z.enum(PROJECT_ROLES) });
export const removeMemberSchema = z.object({ userId: z.string().min(1).max(100) });

/** The command that creates an account, for the owner to hand to whoever runs the server. */
export function createUserCommand(email: string): string {
  return `baton admin create-user --email ${email} --password '<a password>' --name '<their name>'`;
}

export async function listMembers(db: Db, principal: Principal, slug: string): Promise<MemberRow[]> {
  const project = await requireProject(db, principal, slug, "read");
  return listMemberRows(db, { projectId: project.id });
}

export async function addMember(db: Db, principal: Principal, slug: string, input: unknown): Promise<MemberRow> {
  const project = await requireProject(db, principal, slug, "owner");
  const { email, role } = addMemberSchema.parse(input);
  const user = await findUserByEmail(db, { email });
  if (!user) {
    throw new ApiError(
      "not_found",
      `No account for ${email} yet. Whoever runs this Baton server creates it with: ${createUserCommand(email)} — then add it here.`,
    );
  }
  if (!(await insertMember(db, { projectId: project.id, userId: user.id, role }))) {
    throw new ApiError("conflict", `${user.email} is a member of "${slug}" already; change their role instead.`);
  }
  await recordAudit(db, principal.userId, { action: "add", subject: "member", subjectId: user.id, label: user.email, projectId: project.id, detail: `as ${role}` });
  return { userId: user.id, name: user.name, email: user.email, role, createdAt: new Date() };
}

export async function changeMemberRole(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const project = await requireProject(db, principal, slug, "owner");
  const { userId, role } = changeRoleSchema.parse(input);
  const before = await findMember(db, { projectId: project.id, userId });
  if (await updateMemberRole(db, { projectId: project.id, userId, role })) {
    await recordMember(db, principal, { action: "edit", userId, projectId: project.id, detail: `role ${before?.role ?? "?"} → ${role}` });
    return;
  }
  if (!(await findMember(db, { projectId: project.id, userId }))) throw new ApiError("not_found", `That person is not a member of "${slug}".`);
  throw new ApiError("conflict", `"${slug}" needs at least one owner: make someone else an owner first.`);
}

export async function removeMember(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const project = await requireProject(db, principal, slug, "owner");
  const { userId } = removeMemberSchema.parse(input);
  const before = await findMember(db, { projectId: project.id, userId });
  if (await deleteMember(db, { projectId: project.id, userId })) {
    await recordMember(db, principal, { action: "delete", userId, projectId: project.id, detail: before ? `was ${before.role}` : null });
    return;
  }
  if (!(await findMember(db, { projectId: project.id, userId }))) throw new ApiError("not_found", `That person is not a member of "${slug}".`);
  throw new ApiError("conflict", `"${slug}" needs at least one owner: make someone else an owner before removing the last one.`);
}

/** A change to someone's membership, named by their email in the trail. */
async function recordMember(db: Db, principal: Principal, change: { action: "edit" | "delete"; userId: string; projectId: string; detail: string | null }): Promise<void> {
  const member = await getUser(db, { userId: change.userId });
  await recordAudit(db, principal.userId, { action: change.action, subject: "member", subjectId: change.userId, label: member?.email ?? change.userId, projectId: change.projectId, detail: change.detail });
}
