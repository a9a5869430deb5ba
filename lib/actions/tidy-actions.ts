"use server";

import { z } from "zod";
import { KEEP_DAYS, keepInQueue, replaceInQueue } from "../learnings/tidy";
import { formAction } from "./form-action";

// The tidy-up queue's decisions as forms (they work without JavaScript); the domain checks the rest.

const slugField = z.string().min(1).max(100);
const tidyPage = ({ slug }: { slug: string }) => [`/projects/${slug}/tidy`, "/learnings"];

/** ids: one id, or two separated by a space (a pair kept as it is). */
export const keepTidyAction = formAction(
  z.object({ slug: slugField, ids: z.string().max(300).transform((s) => s.split(" ").filter(Boolean)) }),
  async ({ slug, ids }, { db, principal }) => {
    await keepInQueue(db, principal, slug, { ids });
    return { message: `Kept; out of the queue for ${KEEP_DAYS} days.` };
  },
  { revalidate: tidyPage },
);

export const replaceTidyAction = formAction(
  z.object({ slug: slugField, keep: z.string(), drop: z.string(), how: z.string() }),
  async ({ slug, ...input }, { db, principal }) => {
    await replaceInQueue(db, principal, slug, input);
    return { message: input.how === "merge" ? "Merged." : "Superseded." };
  },
  { revalidate: tidyPage },
);
