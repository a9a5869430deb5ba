import { describe, expect, it } from "vitest";
import { promptHint } from "@/cli/src/hooks/prompt";
import { searchHint } from "@/cli/src/hooks/search-hint";
import { MAX_HINT_URL_BYTES, PROMPT_HINT_CHARS } from "@/lib/rules";

// What `baton hook prompt` sends of a prompt: redacted, then cut to its opening.

const TOKEN = "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9";
/** How much of a prompt the hook redacts (16 × PROMPT_HINT_CHARS, as in search-hint.ts). */
const WINDOW = 16 * PROMPT_HINT_CHARS;

describe("promptHint", () => {
  it("withholds a secret and its marker, and keeps the opening", () => {
    expect(promptHint(`rotate the flamingo keys with ${TOKEN} today`)).toBe("rotate the flamingo keys with today");
    expect(promptHint("word ".repeat(1000)).length).toBeLessThanOrEqual(PROMPT_HINT_CHARS);
  });

  it("never sends a piece of a secret that the redaction window cuts through", () => {
    // Whitespace before the token collapses, so what the window leaves of it would lead the hint.
    for (const cut of [4, 10, 20, 30]) {
      const hint = promptHint(" ".repeat(WINDOW - cut) + TOKEN + " rest");
      expect(hint).not.toContain(TOKEN.slice(0, cut));
      expect(hint).toBe("");
    }
  });

  it("keeps the last word when the window ends right after it", () => {
    expect(promptHint(" ".repeat(WINDOW - 8) + "flamingo rest")).toBe("flamingo");
  });

  it("never passes MAX_HINT_URL_BYTES as URLSearchParams encodes it, whatever the characters (~ is %7E)", () => {
    for (const char of ["~", "a", "é", "語", "!", "~a"]) {
      const hint = searchHint(char.repeat(6_000), 6_000);
      expect(new URLSearchParams({ q: hint }).toString().length - 2, char).toBeLessThanOrEqual(MAX_HINT_URL_BYTES);
    }
  });
});
