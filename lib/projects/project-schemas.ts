import { z } from "zod";
import { isoDate, oneLine } from "../api/zod-fields";
import { MAX_NAME_CHARS, PROJECT_ROLES, SLUG_MAX, SLUG_PATTERN, SLUG_RULE } from "../rules";

export const slugSchema = z
  .string()
  .min(1)
  .max(SLUG_MAX)
  .regex(SLUG_PATTERN, { message: SLUG_RULE });

export const newProjectSchema = z.object({
  slug: slugSchema,
  // Shown on one line of its members' contexts and tools (MCP resource titles): no line break or other control character.
  name: z
    .string()
    .trim()
    .min(1, { message: "Name the project." })
    .max(MAX_NAME_CHARS)
    .regex(...oneLine("A project name has no line breaks or control characters.")),
});

/** PATCH /api/projects/{slug} (owners): what an owner may change. */
export const projectUpdateSchema = z.strictObject({
  injectionPaused: z.boolean({ error: "injectionPaused must be true (hooks inject nothing in this project) or false." }),
});

/** What the API says about a project: no internal ids. */
export const projectOutSchema = z.object({
  slug: z.string(),
  name: z.string(),
  role: z.enum(PROJECT_ROLES),
  injectionPaused: z.boolean(),
  createdAt: isoDate,
});
export type ProjectOut = z.output<typeof projectOutSchema>;
