import { z } from "zod";
import { projectRoles } from "../db/schema";

export const slugSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, { message: "Use lowercase letters, digits and dashes, starting with a letter or digit." });

export const newProjectSchema = z.object({
  slug: slugSchema,
  name: z.string().trim().min(1, { message: "Name the project." }).max(100),
});

/** What the API says about a project: no internal ids. */
export const projectOutSchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: z.enum(projectRoles),
  createdAt: z.date().transform((d) => d.toISOString()),
});
export type ProjectOut = z.output<typeof projectOutSchema>;
