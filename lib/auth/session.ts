import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { serverOrigin } from "../dashboard/server-origin";
import { getDb, type Db } from "../db/client";
import { noteIfUnavailable } from "../db/outage";
import { countUsers, type PublicUser } from "../db/queries/users";
import { authFor } from "./auth";
import { PATH_HEADER } from "./path-header";
import { sameOriginPath } from "./same-origin-path";
import { sessionPrincipal, type Principal } from "./principal";

/** A page's first database read failed: an outage is marked (the next pages get the proxy's 503 page). */
function outageAndThrow(error: unknown): never {
  noteIfUnavailable(error);
  throw error;
}

/** The signed-in user of this request, or null (a disabled account's session, too). Cached for the request. */
export const getSessionUser = cache(async (): Promise<(PublicUser & { isAdmin: boolean }) | null> => {
  const requestHeaders = await headers();
  const session = await authFor(requestHeaders).api.getSession({ headers: requestHeaders }).catch(outageAndThrow);
  if (!session || session.user.disabledAt) return null;
  return { id: session.user.id, name: session.user.name, email: session.user.email, isAdmin: session.user.role === "admin" };
});

/** For dashboard pages and actions: the user, or a redirect to setup (fresh install) or sign-in. */
export async function requireUser(): Promise<{ user: PublicUser & { isAdmin: boolean }; principal: Principal; db: Db }> {
  await connection();
  const user = await getSessionUser();
  const db = getDb();
  if (!user) {
    if ((await countUsers(db)) === 0) redirect("/setup");
    const next = sameOriginPath((await headers()).get(PATH_HEADER), await serverOrigin());
    redirect(next !== "/" ? `/sign-in?next=${encodeURIComponent(next)}` : "/sign-in");
  }
  return { user, db, principal: sessionPrincipal(user.id) };
}

/** True while nobody has set Baton up: the setup page is offered only then. */
export async function needsSetup(): Promise<boolean> {
  // Depends on the database, so never prerendered at build time.
  await connection();
  return (await countUsers(getDb()).catch(outageAndThrow)) === 0;
}
