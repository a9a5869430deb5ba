import { describe, expect, it } from "vitest";
import { combineConfidence, isNearDuplicate, isSimilar, similarity } from "@/lib/proposals/near-duplicate";
import { ftsQuery } from "@/lib/learnings/fts-query";

describe("isNearDuplicate", () => {
  it.each([
    ["Always run the tests before committing.", "always run tests before commit", true],
    ["Prefer small, focused commits", "prefer small focused commits!", true],
    ["The API uses cursor pagination", "the api uses cursor pagination", true],
    ["Use pnpm for installs", "Use npm for installs", false],
    ["Run migrations at start", "Never run migrations at start", false],
    ["Deploys go through the staging branch", "Tests run on every push", false],
  ])("%j ~ %j → %s", (a, b, near) => {
    expect(isNearDuplicate(a, b)).toBe(near);
  });

  it("is symmetric", () => {
    expect(similarity("a b c d", "a b c")).toBe(similarity("a b c", "a b c d"));
  });
});

describe("isSimilar (what a proposal may supersede)", () => {
  it.each([
    ["Use npm for installs", "Use pnpm for installs, never npm", true],
    ["Deploys go through the staging bucket", "Deploys now skip the staging bucket and go straight to production", true],
    ["Run migrations at start", "Never run migrations at start", true],
    ["Always run the tests before committing.", "always run tests before commit", true],
    ["Deploys go through the staging branch", "Tests run on every push", false],
    ["The staging database is read-only", "Prefer server actions for dashboard mutations", false],
    // One shared word is never enough, however short the texts.
    ["Use pnpm", "Use docker compose for the database", false],
  ])("%j ~ %j → %s", (a, b, similar) => {
    expect(isSimilar(a, b)).toBe(similar);
    expect(isSimilar(b, a)).toBe(similar);
  });
});

describe("combineConfidence", () => {
  it.each([
    [0.5, 0.5, 0.75],
    [0.9, 0.9, 0.99],
    [0, 0.3, 0.3],
    [0.99, 0.99, 0.99],
  ])("%d and %d → %d", (a, b, c) => {
    expect(combineConfidence(a, b)).toBeCloseTo(c, 3);
  });
});

describe("ftsQuery", () => {
  it.each([
    ["run the tests", '"run" OR "tests"'],
    ['evil" OR content:* NEAR(', '"evil" OR "content" OR "near"'],
    ["the a of", null],
    ["", null],
    ["Zürich Déploiement", '"zürich" OR "déploiement"'],
  ])("%j → %j", (input, expected) => {
    expect(ftsQuery(input)).toBe(expected);
  });

  it("caps the number of terms", () => {
    const q = ftsQuery(Array.from({ length: 100 }, (_, i) => `word${i}`).join(" "), 5)!;
    expect(q.split(" OR ")).toHaveLength(5);
  });
});
