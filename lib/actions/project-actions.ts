"use server";

import { z } from "zod";
import { createProject } from "../projects/projects";
import { formAction } from "./form-action";

export const createProjectAction = formAction(
  z.object({ slug: z.string(), name: z.string() }),
  async (input, { db, principal }) => {
    const project = await createProject(db, principal, input);
    return { message: `Project ${project.slug} created.` };
  },
  { revalidate: ["/", "/settings/projects"], echo: ["name", "slug"] },
);
