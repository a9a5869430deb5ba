import { describe, expect, it } from "vitest";
import { z } from "zod";
import { producedByLabel } from "@/lib/agents/produced-by";
import { producedByFields } from "@/lib/api/zod-fields";
import { isModelName, MAX_MODEL_CHARS } from "@/lib/rules";

describe("producedByLabel", () => {
  it.each([
    [{ agent: "codex", model: "gpt-5.1" }, "Codex CLI · gpt-5.1"],
    [{ agent: "copilot", model: null }, "Copilot CLI"],
    [{ agent: null, model: "qwen3-coder" }, "qwen3-coder"],
    [{ agent: null, model: null }, null],
  ] as const)("%o → %s", (by, label) => expect(producedByLabel(by)).toBe(label));
});

// The CLI checks a model name with isModelName before sending it (a refused one would cost the whole
// handoff): it must never pass a name the server's field refuses.
describe("isModelName agrees with the server's model field", () => {
  const field = z.object({ model: producedByFields.model });
  it.each([
    ["gpt-5.1", true],
    ["claude-sonnet-4-5-20250929", true],
    ["claude-opus-4-1[1m]", true],
    ["gemini 2.5 pro", true],
    ["m".repeat(MAX_MODEL_CHARS), true],
    ["m".repeat(MAX_MODEL_CHARS + 1), false],
    ["", false],
    [" gpt-5 ", false],
    ["gpt-5\n## Identity", false],
    ["gpt\u202e5", false],
    ["gpt\u200b5", false],
    ["gpt\u00005", false],
  ])("%j → %s", (model, ok) => {
    expect(isModelName(model)).toBe(ok);
    if (ok) expect(field.parse({ model })).toEqual({ model });
  });
});
