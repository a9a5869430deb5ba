import { requireServer, resolveProject } from "../config/server-context";
import { EXIT } from "../exit-codes";
import { expectOk } from "../http/api-client";
import { parseOptions } from "../output/parse-options";
import { printResult } from "../output/print";

type Learning = { id: string; kind: string; content: string; confirmed: boolean; project: string | null; score?: number };

/** `baton learnings [query]`: the learnings the context left out ("12 more learnings: `baton learnings`"). */
export async function runLearnings(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { project: { type: "string" }, kind: { type: "string" }, limit: { type: "string" }, all: { type: "boolean" } },
    1,
  );
  const ctx = requireServer();
  const { config, call } = ctx;
  const params = new URLSearchParams({ limit: values.limit ?? "50" });
  if (positionals[0]) params.set("q", positionals[0]);
  if (values.kind) params.set("kind", values.kind);
  if (!values.all) {
    const project = values.project || config.project ? await resolveProject(ctx, values.project) : null;
    if (project) params.set("project", project.slug);
  }
  const { items } = expectOk<{ items: Learning[] }>(await call("GET", `/api/learnings?${params}`), "cannot list learnings");
  printResult({ items }, () =>
    items.length
      ? items.map((l) => `- [${l.kind}] ${l.content.replace(/\s+/g, " ")}${l.confirmed ? "" : " (unconfirmed)"}${l.project ? ` · ${l.project}` : ""}`).join("\n")
      : "No learnings match.",
  );
  return EXIT.ok;
}
