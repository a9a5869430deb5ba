"use server";

import { z } from "zod";
import { addMatcher, newMatcherSchema, removeMatcher } from "../projects/matchers";
import { slugSchema } from "../projects/project-schemas";
import { formAction } from "./form-action";

const projectSettings = ({ slug }: { slug: string }) => [`/settings/projects/${slug}`];

export const addMatcherAction = formAction(
  // The domain's schema here too: the message names the pattern as stored (trimmed, no trailing slash).
  z.object({ slug: slugSchema }).and(newMatcherSchema),
  async ({ slug, ...matcher }, { db, principal }) => {
    await addMatcher(db, principal, slug, matcher);
    return { message: `Matcher added: ${matcher.pattern}.` };
  },
  { revalidate: projectSettings, echo: ["pattern", "kind"] },
);

export const removeMatcherAction = formAction(
  z.object({ slug: slugSchema, id: z.string() }),
  async ({ slug, id }, { db, principal }) => {
    await removeMatcher(db, principal, slug, { id });
    return { message: "Matcher removed." };
  },
  { revalidate: projectSettings },
);
