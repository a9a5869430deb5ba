"use server";

import { z } from "zod";
import { acceptInvitation, declineInvitation, invitationSentMessage, inviteMember, revokeInvitation } from "../projects/invitations";
import { slugSchema } from "../projects/project-schemas";
import { formAction } from "./form-action";

// Each action checks the form, then the domain checks the fields and who may do it (owners invite and
// revoke; the person invited accepts or declines).

const projectSettings = ({ slug }: { slug: string }) => [`/settings/projects/${slug}`];
/** Where an invitee answers, and the pages that list their projects. */
const inviteePages = () => ["/", "/settings/projects"];

export const inviteMemberAction = formAction(
  z.object({ slug: slugSchema, email: z.string().trim(), role: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    const invitation = await inviteMember(db, principal, slug, input);
    return { message: invitationSentMessage(invitation.email) };
  },
  { revalidate: projectSettings, echo: ["email"] },
);

export const revokeInvitationAction = formAction(
  z.object({ slug: slugSchema, id: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    await revokeInvitation(db, principal, slug, input);
    return { message: "Invitation revoked." };
  },
  { revalidate: projectSettings },
);

export const acceptInvitationAction = formAction(
  z.object({ slug: slugSchema }),
  async ({ slug }, { db, principal }) => {
    const project = await acceptInvitation(db, principal, slug);
    return { message: `You joined ${project.name} as ${project.role}.` };
  },
  { revalidate: inviteePages },
);

export const declineInvitationAction = formAction(
  z.object({ slug: slugSchema }),
  async ({ slug }, { db, principal }) => {
    await declineInvitation(db, principal, slug);
    return { message: "Invitation declined." };
  },
  { revalidate: inviteePages },
);
