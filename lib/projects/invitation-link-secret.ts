import "server-only";
import { generateSecret, hashToken, secretHashOf } from "../auth/api-tokens";
import type { LinkParams } from "../db/queries/invitations";
import { mailConfigured } from "../mail/send-mail";
import { INVITATION_LINK_DAYS } from "../rules";

/** Starts every invitation link's secret, so a leaked one is recognisable (and never taken for an API token). */
export const LINK_PREFIX = "join_";
const LINK_MS = INVITATION_LINK_DAYS * 24 * 60 * 60 * 1000;

/** A new link's secret, and what is stored of it: the hash, the expiry, whether a mail is on its way. */
export async function newLink(now = new Date()): Promise<{ token: string; link: LinkParams }> {
  const token = generateSecret(LINK_PREFIX);
  return {
    token,
    link: { linkHash: await hashToken(token), linkExpiresAt: new Date(now.getTime() + LINK_MS), mailState: mailConfigured() ? "sending" : null },
  };
}

/** The hash a link's secret is stored under; undefined for what cannot be one. */
export function linkHashOf(token: string): Promise<string | undefined> {
  return secretHashOf(LINK_PREFIX, token);
}

/** The page a link's secret opens. */
export const joinUrl = (origin: string, token: string) => `${origin}/join/${token}`;
