import { describe, expect, it } from "vitest";
import { limitParam } from "@/lib/api/parse-query";
import { contextQuerySchema } from "@/lib/context/context-query";
import { promptQuerySchema } from "@/lib/context/prompt/prompt-query";
import { learningQuerySchema } from "@/lib/learnings/learning-schemas";
import { DEFAULT_CONTEXT_BUDGET, DEFAULT_PAGE_SIZE } from "@/lib/rules";

// A number in a query string is decimal digits: what JavaScript's Number also reads (hex, exponents,
// padding) is a 400 naming the parameter, not a budget or a page size nobody asked for.

describe("whole numbers in a query string", () => {
  it("reads decimal digits, and a number given as one (a form's, a tool's arguments)", () => {
    expect(contextQuerySchema.parse({ budget: "700", maxChars: "09500" })).toMatchObject({ budget: 700, maxChars: 9500 });
    expect(contextQuerySchema.parse({ budget: 700 })).toMatchObject({ budget: 700 });
    expect(contextQuerySchema.parse({})).toMatchObject({ budget: DEFAULT_CONTEXT_BUDGET });
    expect(limitParam.parse(undefined)).toBe(DEFAULT_PAGE_SIZE);
    expect(learningQuerySchema.parse({ limit: "7" }).limit).toBe(7);
  });

  it.each(["0x10", "1e3", " 700", "700 ", "700.5", "+700", "-1", "", "0b1", "Infinity", "７００"])("refuses %j, naming the parameter", (value) => {
    for (const [schema, key, extra] of [
      [contextQuerySchema, "budget", {}],
      [contextQuerySchema, "maxChars", {}],
      [promptQuerySchema, "budget", { sessionId: "s1", q: "why" }],
      [learningQuerySchema, "limit", {}],
    ] as const) {
      const result = schema.safeParse({ ...extra, [key]: value });
      expect(result.success, `${key}=${JSON.stringify(value)}`).toBe(false);
      expect(result.error!.issues[0]!.path).toEqual([key]);
    }
  });

  it("still bounds what it reads", () => {
    expect(contextQuerySchema.safeParse({ budget: "199" }).success).toBe(false);
    expect(contextQuerySchema.safeParse({ budget: "99999999999999999999" }).success).toBe(false);
    expect(limitParam.safeParse("0").success).toBe(false);
  });
});
