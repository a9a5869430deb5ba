"use server";

import { z } from "zod";
import { createLearning, editLearning, removeLearning } from "../learnings/learnings";
import { SOURCE_DEFAULTS } from "../rules";
import { formAction } from "./form-action";

// The forms' fields in the domain's terms; the domain's own schema then checks kinds, content and tags.

const LEARNINGS_PAGE = ["/learnings"];

const idField = z.string().min(1).max(100);

/** A toggle's hidden field: "true" | "false". */
const flagField = z.enum(["true", "false"]).transform((v) => v === "true");

/** "a, b c" → ["a", "b", "c"]: people type tags either way. */
const tagsField = z
  .string()
  .max(2000)
  .transform((s) => [...new Set(s.split(/[\s,]+/).filter(Boolean))]);

const newLearningForm = z.object({
  kind: z.string(),
  content: z.string(),
  /** "" is the personal choice. */
  project: z.string().transform((slug) => slug || null),
  tags: tagsField,
  /** A checkbox: sent as "on" when ticked, absent otherwise. */
  confirmed: z
    .literal("on")
    .optional()
    .transform((on) => on === "on"),
});

const editLearningForm = z.object({ id: idField, kind: z.string(), content: z.string(), tags: tagsField });

/** confirmed = "true" | "false": a learning confirmed by a person ranks before unconfirmed ones in a context. */
const confirmForm = z.object({ id: idField, confirmed: flagField });

export const createLearningAction = formAction(
  newLearningForm,
  async (input, { db, principal }) => {
    const { created } = await createLearning(db, principal, { ...input, source: SOURCE_DEFAULTS.typed });
    return { message: created ? "Learning added." : "That learning is already there." };
  },
  { revalidate: LEARNINGS_PAGE },
);

export const editLearningAction = formAction(
  editLearningForm,
  async ({ id, ...patch }, { db, principal }) => {
    await editLearning(db, principal, id, patch);
    return { message: "Saved." };
  },
  { revalidate: LEARNINGS_PAGE },
);

export const setLearningConfirmedAction = formAction(
  confirmForm,
  async ({ id, confirmed }, { db, principal }) => {
    await editLearning(db, principal, id, { confirmed });
    return { message: confirmed ? "Confirmed." : "Marked unconfirmed." };
  },
  { revalidate: LEARNINGS_PAGE },
);

/** pinned = "true" | "false": a pinned learning is in every context of its project (or, personal, of its user). */
export const setLearningPinnedAction = formAction(
  z.object({ id: idField, pinned: flagField }),
  async ({ id, pinned }, { db, principal }) => {
    await editLearning(db, principal, id, { pinned });
    return { message: pinned ? "Pinned." : "Unpinned." };
  },
  { revalidate: LEARNINGS_PAGE },
);

/** A superseded learning back in use: agents receive it again. */
export const restoreLearningAction = formAction(
  z.object({ id: idField }),
  async ({ id }, { db, principal }) => {
    await editLearning(db, principal, id, { superseded: false });
    return { message: "No longer superseded." };
  },
  { revalidate: LEARNINGS_PAGE },
);

/** A flagged learning checked and still true (issue 27): the flag goes, in the audit trail. */
export const clearLearningFlagAction = formAction(
  z.object({ id: idField }),
  async ({ id }, { db, principal }) => {
    await editLearning(db, principal, id, { flagged: false });
    return { message: "Flag cleared." };
  },
  { revalidate: LEARNINGS_PAGE },
);

export const deleteLearningAction = formAction(
  z.object({ id: idField }),
  async ({ id }, { db, principal }) => {
    await removeLearning(db, principal, id);
    return { message: "Deleted." };
  },
  { revalidate: LEARNINGS_PAGE },
);
