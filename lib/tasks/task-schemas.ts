import { z } from "zod";

/** Also a file name on developers' machines (`backlog/memory/<taskId>.md`): no slashes, no leading dot. */
export const taskIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
    message: "A task id is 1–100 letters, digits, dots, dashes or underscores, starting with a letter or digit (e.g. task-368).",
  });

/**
 * Kept exactly as sent; an empty memory is allowed (a task just started). NUL is refused because
 * libSQL cuts text at it.
 */
export const taskMemoryBodySchema = z.object({
  markdown: z.string().refine((s) => !s.includes("\u0000"), { message: "The markdown contains a NUL character, which cannot be stored." }),
});

export const activeTaskBodySchema = z.object({ taskId: taskIdSchema });

const isoDate = z.date().transform((d) => d.toISOString());

export const taskMemoryOutSchema = z.object({
  project: z.string(),
  taskId: z.string(),
  markdown: z.string(),
  updatedAt: isoDate,
});
export type TaskMemoryOut = z.output<typeof taskMemoryOutSchema>;

export const activeTaskOutSchema = z.object({ taskId: z.string(), setAt: isoDate }).nullable();
