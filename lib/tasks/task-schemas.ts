import { z } from "zod";
import { isoDate, nulFreeText } from "../api/zod-fields";
import { TASK_ID_PATTERN, TASK_ID_RULE } from "../rules";

export const taskIdSchema = z.string().regex(TASK_ID_PATTERN, { message: TASK_ID_RULE });

/** Kept exactly as sent; an empty memory is allowed (a task just started). */
export const taskMemoryBodySchema = z.object({ markdown: nulFreeText });

export const activeTaskBodySchema = z.object({ taskId: taskIdSchema });

export const taskMemoryOutSchema = z.object({
  project: z.string(),
  taskId: z.string(),
  markdown: z.string(),
  updatedAt: isoDate,
  /** Who wrote it last, by name (null once that account is gone); whether that was the caller. */
  updatedBy: z.string().nullable(),
  updatedByYou: z.boolean(),
});
export type TaskMemoryOut = z.output<typeof taskMemoryOutSchema>;

export const activeTaskOutSchema = z.object({ taskId: z.string(), setAt: isoDate }).nullable();
