import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { formError } from "@/lib/actions/form-errors";
import { readForm } from "@/lib/actions/read-form";
import { ApiError, INTERNAL_ERROR_MESSAGE, toFailure } from "@/lib/api/errors";

const zodError = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a zod error");
  return result.error;
};

describe("toFailure: one wording of every failure", () => {
  it("keeps an ApiError as it is, with its reason and headers", () => {
    const error = new ApiError("unauthorized", "No token.", undefined, { headers: { "www-authenticate": "Bearer" }, reason: "no_task_memory" });
    expect(toFailure(error)).toEqual({ status: 401, code: "unauthorized", message: "No token.", reason: "no_task_memory", headers: { "www-authenticate": "Bearer" } });
  });

  it("turns a zod error into validation_failed naming the first issue's path", () => {
    const failure = toFailure(zodError(z.object({ slug: z.string().min(2, { message: "Too short." }) }), { slug: "a" }));
    expect(failure).toEqual({
      status: 400,
      code: "validation_failed",
      message: "Invalid input at slug: Too short.",
      issues: [{ path: ["slug"], message: "Too short.", code: "too_small" }],
    });
  });

  it("logs anything else once and reveals nothing of it", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const failure = toFailure(new Error("secret path /etc/x"));
    expect(failure).toEqual({ status: 500, code: "internal_error", message: INTERNAL_ERROR_MESSAGE });
    expect(log).toHaveBeenCalledTimes(1);
    log.mockRestore();
  });
});

describe("formError: a failure as form state", () => {
  it.each([
    {
      name: "zod issues → the first message per field",
      error: zodError(z.object({ a: z.string().min(3, { message: "A short." }).regex(/x/, { message: "No x." }), b: z.string() }), { a: "y", b: 1 }),
      state: { ok: false, message: "Check the highlighted fields.", fieldErrors: { a: "A short.", b: expect.any(String) } },
    },
    { name: "a refused request → its message", error: new ApiError("conflict", "Exists already."), state: { ok: false, message: "Exists already." } },
  ])("$name", ({ error, state }) => {
    expect(formError(error)).toEqual(state);
  });

  it("rethrows anything else (Next's redirect among them)", () => {
    const unexpected = new Error("NEXT_REDIRECT");
    expect(() => formError(unexpected)).toThrow(unexpected);
  });
});

describe("readForm", () => {
  it("takes each text field once (the first), leaves files and absent fields out", () => {
    const form = new FormData();
    form.append("a", "1");
    form.append("a", "2");
    form.append("file", new Blob(["x"]), "x.txt");
    form.append("constructor", "c");
    expect(readForm(form)).toEqual({ a: "1", constructor: "c" });
  });
});
