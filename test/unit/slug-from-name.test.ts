import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { slugFromName } from "@/components/projects/slug-from-name";
import { SLUG_MAX, SLUG_PATTERN } from "@/lib/rules";

describe("slugFromName", () => {
  it.each([
    ["Web app", "web-app"],
    ["  Acme / Web-App (v2)  ", "acme-web-app-v2"],
    ["Café Münster", "cafe-munster"],
    ["---", ""],
    ["日本", ""],
    ["API_v3.1", "api-v3-1"],
  ])("%j → %j", (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });

  it("is always a valid slug, or empty", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (name) => {
        const slug = slugFromName(name);
        expect(slug === "" || (SLUG_PATTERN.test(slug) && slug.length <= SLUG_MAX && !slug.endsWith("-"))).toBe(true);
      }),
    );
  });
});
