import { z } from "zod";
import { ApiError } from "../api/errors";
import type { FormState } from "./form-state";

/** A thrown validation or domain error as form state; anything else is rethrown (Next shows its error page). */
export function formError(error: unknown): FormState<never> {
  if (error instanceof z.ZodError) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.issues) {
      const key = String(issue.path[0] ?? "form");
      fieldErrors[key] ??= issue.message;
    }
    return { ok: false, message: "Check the highlighted fields.", fieldErrors };
  }
  if (error instanceof ApiError) return { ok: false, message: error.message };
  throw error;
}
