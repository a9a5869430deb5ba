import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedMethods } from "@/lib/api/allowed-methods";
import routes from "@/lib/api/api-routes.json";
import { decodePathSegments } from "@/lib/api/path-segments";
import { ROOT } from "../support/server";
import { buildTable, serialize } from "../../scripts/api-routes.mjs";

const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(path.join(dir, e.name)) : e.name === "route.ts" ? [path.join(dir, e.name)] : [],
  );
}

describe("the API route table", () => {
  it("is what scripts/api-routes.mjs derives from app/api (run it after adding a route or method)", () => {
    expect(JSON.stringify(routes, null, 2) + "\n").toBe(serialize(buildTable()));
  });

  it("lists exactly the methods each route module exports", async () => {
    const files = routeFiles(path.join(ROOT, "app/api"));
    expect(files.length).toBe(routes.length);
    for (const file of files) {
      const pattern = "/" + path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep).join("/");
      const mod = (await import(file)) as Record<string, unknown>;
      const exported = HTTP_METHODS.filter((m) => typeof mod[m] === "function");
      expect(routes.find((r) => r.pattern === pattern)?.methods, pattern).toEqual(exported);
    }
  }, 60_000);
});

describe("allowedMethods", () => {
  it.each([
    ["/api/health", ["GET", "HEAD", "OPTIONS"]],
    ["/api/learnings/abc", ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH"]],
    // A static segment wins over a [param] at the same place, as in Next.js.
    ["/api/proposals/review", ["OPTIONS", "POST"]],
    ["/api/proposals/abc/accept", ["OPTIONS", "POST"]],
    ["/api/projects/web/tasks/task-1/memory", ["GET", "HEAD", "OPTIONS", "PUT"]],
    // Nothing serves it but the catch-all, which answers 404 for every method it exports.
    ["/api/nope/deeper", ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"]],
  ])("%s → %j", (pathname, allowed) => {
    expect(allowedMethods(decodePathSegments(pathname)!)).toEqual(allowed);
  });

  it("knows no route outside /api", () => {
    expect(allowedMethods(["projects", "web"])).toBeNull();
  });
});

describe("decodePathSegments", () => {
  it.each([["/api/learnings/%ff"], ["/api/projects/%C0%AE%C0%AE/handoffs"], ["/api/sessions/x%/claim"], ["/%E0%A4%A"], ["/a/%"]])(
    "refuses %s",
    (pathname) => expect(decodePathSegments(pathname)).toBeNull(),
  );

  it("decodes valid segments, unicode and an encoded slash included", () => {
    expect(decodePathSegments("/api/projects/%C3%A9t%C3%A9/a%2Fb")).toEqual(["api", "projects", "été", "a/b"]);
    expect(decodePathSegments("//api//health/")).toEqual(["api", "health"]);
  });
});
