"use server";

import { z } from "zod";
import { addMember, changeMemberRole, removeMember } from "../projects/members";
import { slugSchema } from "../projects/project-schemas";
import { formAction } from "./form-action";

// Each action checks the form, then the domain checks the fields and that the signed-in user owns the project.

const projectSettings = ({ slug }: { slug: string }) => [`/settings/projects/${slug}`];

export const addMemberAction = formAction(
  z.object({ slug: slugSchema, email: z.string().trim(), role: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    const member = await addMember(db, principal, slug, input);
    return { message: `${member.email} added as ${member.role}.` };
  },
  { revalidate: projectSettings, echo: ["email"] },
);

export const changeMemberRoleAction = formAction(
  z.object({ slug: slugSchema, userId: z.string(), role: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    await changeMemberRole(db, principal, slug, input);
    return { message: `Role changed to ${input.role}.` };
  },
  { revalidate: projectSettings },
);

export const removeMemberAction = formAction(
  z.object({ slug: slugSchema, userId: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    await removeMember(db, principal, slug, input);
    return { message: "Removed." };
  },
  { revalidate: projectSettings },
);
