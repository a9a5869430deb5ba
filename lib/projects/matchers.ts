import { z } from "zod";
import { ApiError } from "../api/errors";
import { oneLine } from "../api/zod-fields";
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import { deleteMatcher, insertMatcher, listMatchers, type MatcherRow } from "../db/queries/matchers";
import { MATCHER_KINDS } from "../rules";
import { requireProject } from "./projects";

// Matchers tell GET /api/context which project a session is in when the hook names none: a git remote
// (compared however it is written: ssh, https, with or without .git) or the trailing segments of a
// working directory ("acme/web" fits /home/ana/src/acme/web). Members read them; owners change them.

export const newMatcherSchema = z
  .object({
    kind: z.enum(MATCHER_KINDS),
    pattern: z
      .string()
      .trim()
      .min(1, { message: "Enter a directory or a remote." })
      .max(500)
      .regex(...oneLine("No control characters.")),
  })
  .transform((m) => ({ ...m, pattern: m.kind === "cwd" ? m.pattern.replace(/[\\/]+$/, "") || m.pattern : m.pattern }));

export const matcherIdSchema = z.object({ id: z.string().min(1).max(100) });

export async function listProjectMatchers(db: Db, principal: Principal, slug: string): Promise<MatcherRow[]> {
  const project = await requireProject(db, principal, slug, "read");
  return listMatchers(db, { projectId: project.id });
}

export async function addMatcher(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const project = await requireProject(db, principal, slug, "owner");
  const data = newMatcherSchema.parse(input);
  if (!(await insertMatcher(db, { id: crypto.randomUUID(), projectId: project.id, ...data }))) {
    throw new ApiError("conflict", `"${slug}" has that ${data.kind === "cwd" ? "directory" : "remote"} matcher already.`);
  }
}

export async function removeMatcher(db: Db, principal: Principal, slug: string, input: unknown): Promise<void> {
  const project = await requireProject(db, principal, slug, "owner");
  const { id } = matcherIdSchema.parse(input);
  if (!(await deleteMatcher(db, { projectId: project.id, id }))) throw new ApiError("not_found", "No such matcher in this project.");
}
