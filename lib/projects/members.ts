import { z } from "zod";
import { ApiError } from "../api/errors";
import { recordAudit } from "../audit/record-audit";
import type { Principal } from "../auth/principal";
import type { Db, DbOrTx } from "../db/client";
import { deleteMember, findMember, listMembers as listMemberRows, updateMemberRole, type MemberRow } from "../db/queries/members";
import { closeInvitationsFrom } from "../db/queries/invitations";
import { getUser } from "../db/queries/users";
import { PROJECT_ROLES } from "../rules";
import { requireProject } from "./projects";

// Members of a project: anyone in it may see who else is; only owners change who is and with what role,
// anyone may leave, and a project never loses its last owner. Nobody becomes a member without saying
// yes: owners invite (./invitations.ts), the invitee accepts.

export const changeRoleSchema = z.object({ userId: z.string().min(1).max(100), role: z.enum(PROJECT_ROLES) });
export const removeMemberSchema = z.object({ userId: z.string().min(1).max(100) });

export async function listMembers(db: Db, principal: Principal, slug: string): Promise<MemberRow[]> {
  const project = await requireProject(db, principal, slug, "read");
  return listMemberRows(db, { projectId: project.id });
}

export async function changeMemberRole(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const project = await requireProject(db, principal, slug, "owner");
  const { userId, role } = changeRoleSchema.parse(input);
  const before = await findMember(db, { projectId: project.id, userId });
  if (await updateMemberRole(db, { projectId: project.id, userId, role })) {
    const closed = role === "owner" ? null : await closeInvitationsOf(db, userId, project.id);
    await recordMember(db, principal, { action: "edit", userId, projectId: project.id, detail: trail(`role ${before?.role ?? "?"} → ${role}`, closed) });
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
    const closed = await closeInvitationsOf(db, userId, project.id);
    await recordMember(db, principal, { action: "delete", userId, projectId: project.id, detail: trail(before && `was ${before.role}`, closed) });
    return;
  }
  if (!(await findMember(db, { projectId: project.id, userId }))) throw new ApiError("not_found", `That person is not a member of "${slug}".`);
  throw new ApiError("conflict", `"${slug}" needs at least one owner: make someone else an owner before removing the last one.`);
}

/** A member leaves the project (any role); the last owner cannot, until someone else is an owner. */
export async function leaveProject(db: Db, principal: Principal, slug: string): Promise<void> {
  const project = await requireProject(db, principal, slug, "read");
  if (!(await deleteMember(db, { projectId: project.id, userId: principal.userId }))) {
    if (!(await findMember(db, { projectId: project.id, userId: principal.userId }))) throw new ApiError("not_found", `You are not a member of "${slug}".`);
    throw new ApiError("conflict", `You are the last owner of "${slug}": make someone else an owner before you leave.`);
  }
  const closed = await closeInvitationsOf(db, principal.userId, project.id);
  await recordMember(db, principal, { action: "delete", userId: principal.userId, projectId: project.id, detail: trail(`left (was ${project.role})`, closed) });
}

/**
 * Closes the pending invitations a person sent (in a project, or in every one) once they are no longer
 * its owner or are disabled (an invitation stands on its inviter's authority), and says so for the
 * trail (null when there were none).
 */
export async function closeInvitationsOf(db: DbOrTx, userId: string, projectId?: string): Promise<string | null> {
  const n = await closeInvitationsFrom(db, { userId, projectId });
  return n ? `${n} pending ${n === 1 ? "invitation" : "invitations"} they sent closed` : null;
}

/** A trail entry's detail from its parts, those there are: "role owner → member; 1 pending invitation they sent closed". */
export function trail(...parts: (string | null | undefined | false)[]): string | null {
  return parts.filter(Boolean).join("; ") || null;
}

/** A change to someone's membership, named by their email in the trail. */
async function recordMember(db: Db, principal: Principal, change: { action: "edit" | "delete"; userId: string; projectId: string; detail: string | null }): Promise<void> {
  const member = await getUser(db, { userId: change.userId });
  await recordAudit(db, principal.userId, { action: change.action, subject: "member", subjectId: change.userId, label: member?.email ?? change.userId, projectId: change.projectId, detail: change.detail });
}
