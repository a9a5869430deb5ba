"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { serverOrigin } from "../dashboard/server-origin";
import { acceptByLink, inviteWithLink, renewInvitationLink, sharedLinkMessage } from "../projects/invitation-links";
import { acceptInvitation, declineInvitation, revokeInvitation } from "../projects/invitations";
import { slugSchema } from "../projects/project-schemas";
import { formAction } from "./form-action";
import type { LinkShown } from "./form-state";

// Each action checks the form, then the domain checks the fields and who may do it (owners invite and
// revoke; the person invited accepts or declines).

const projectSettings = ({ slug }: { slug: string }) => [`/settings/projects/${slug}`];
/** Where an invitee answers, and the pages that list their projects. */
const inviteePages = () => ["/", "/settings/projects"];

export const inviteMemberAction = formAction(
  z.object({ slug: slugSchema, email: z.string().trim(), role: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    const invitation = await inviteWithLink(db, principal, slug, input, await serverOrigin());
    return { message: sharedLinkMessage(invitation), data: { link: invitation.link } satisfies LinkShown };
  },
  { revalidate: projectSettings, echo: ["email"] },
);

export const renewInvitationLinkAction = formAction(
  z.object({ slug: slugSchema, id: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    const invitation = await renewInvitationLink(db, principal, slug, input, await serverOrigin());
    return { message: `New link for ${invitation.email}: the old one no longer works. ${sharedLinkMessage(invitation)}`, data: { link: invitation.link } satisfies LinkShown };
  },
  { revalidate: projectSettings },
);

/** The signed-in invitee accepts on the link's page, and lands in the project. */
export const acceptLinkAction = formAction(
  z.object({ token: z.string().max(200) }),
  async ({ token }, { db, principal }) => {
    const project = await acceptByLink(db, principal, token);
    redirect(`/projects/${project.slug}`);
  },
  { revalidate: inviteePages },
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
