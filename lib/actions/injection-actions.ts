"use server";

import { z } from "zod";
import { slugSchema } from "../projects/project-schemas";
import { updateProject } from "../projects/projects";
import { formAction } from "./form-action";

/** The project settings page's pause switch: the same domain call as PATCH /api/projects/{slug}. */
export const setInjectionAction = formAction(
  z.object({ slug: slugSchema, injectionPaused: z.enum(["true", "false"]).transform((v) => v === "true") }),
  async ({ slug, injectionPaused }, { db, principal }) => {
    await updateProject(db, principal, slug, { injectionPaused });
    return { message: injectionPaused ? "Injection paused: session-start hooks in this project inject nothing." : "Injection resumed." };
  },
  { revalidate: ({ slug }) => [`/settings/projects/${slug}`] },
);
