"use server";

import { z } from "zod";
import { slugSchema } from "../projects/project-schemas";
import { completeSession, releaseSession } from "../sessions/finish-session";
import { formAction } from "./form-action";

/** A board card's buttons: the document's project (ids are unique only within one) and id. */
const sessionForm = z.object({ id: z.string(), slug: slugSchema });

const boardPages = ({ slug }: { slug: string }) => [`/projects/${slug}/sessions`, `/projects/${slug}`];

/** doing → done; its claimer or a project owner (completeSession says no to anyone else). */
export const completeSessionAction = formAction(
  sessionForm,
  async ({ id, slug }, { db, principal }) => {
    await completeSession(db, principal, { project: slug, id });
    return { message: `Session ${id} completed.` };
  },
  { revalidate: boardPages },
);

/** doing → todo, back in the queue for anyone; the same people as above. */
export const releaseSessionAction = formAction(
  sessionForm,
  async ({ id, slug }, { db, principal }) => {
    await releaseSession(db, principal, { project: slug, id });
    return { message: `Session ${id} released.` };
  },
  { revalidate: boardPages },
);
