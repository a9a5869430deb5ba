import { z } from "zod";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../rules";

/** Parses the query string with a zod object schema; a bad value is a 400 naming the parameter. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const params = new URL(request.url).searchParams;
  const raw: Record<string, string> = {};
  for (const [key, value] of params) raw[key] = value;
  return schema.parse(raw);
}

const DECIMAL = /^\d+$/;

/**
 * A whole number in [min, max] from a query string (or a number already, from a form or a tool's
 * arguments): decimal digits only. z.coerce reads a string as JavaScript's Number does, so `0x10`,
 * `1e3`, ` 7 ` and `0b1` were 16, 1000, 7 and 1; they are errors naming the parameter now.
 */
export function wholeNumber(min: number, max: number) {
  return z.preprocess((v) => (typeof v === "string" && DECIMAL.test(v) ? Number(v) : v), z.number({ error: (issue) => (issue.code === "invalid_type" ? "must be a whole number" : undefined) }).int().min(min).max(max));
}

/** `limit` as every list route takes it. */
export const limitParam = wholeNumber(1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE);
