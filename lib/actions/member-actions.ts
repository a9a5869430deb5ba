"use server";

import { z } from "zod";
import { redirect } from "next/navigation";
import { changeMemberRole, leaveProject, removeMember } from "../projects/members";
import { slugSchema } from "../projects/project-schemas";
import { formAction } from "./form-action";

// Each action checks the form, then the domain checks the fields and that the signed-in user owns the project.

const projectSettings = ({ slug }: { slug: string }) => [`/settings/projects/${slug}`];

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

export const leaveProjectAction = formAction(z.object({ slug: slugSchema }), async ({ slug }, { db, principal }) => {
  await leaveProject(db, principal, slug);
  // The project's pages answer 404 to someone who left: back to the list of their projects.
  redirect("/");
});
