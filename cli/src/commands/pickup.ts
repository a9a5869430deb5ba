import { expectProjectOk, requireServer, resolveProject } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { parseOptions } from "../output/parse-options";
import { readListedFile, uniquePaths } from "./read-listed-file";
import { callSession } from "./session-call";
import { DEFAULT_MAX_CHARS, renderPickup } from "./render-pickup";

type Session = { id: string; project: string; markdown: string; specs: string[]; files: string[]; author?: string | null; createdAt?: string };

/**
 * `baton pickup [id]`: claims the next queued session document of the project (or the one named, in
 * the project: see callSession), prints it and the files it lists, read fresh from the repository.
 * Always text: this output is made to be read by an agent.
 */
export async function runPickup(args: string[]): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { "no-inject": { type: "boolean" }, "max-chars": { type: "string" }, project: { type: "string" } },
    1,
  );
  const maxChars = values["max-chars"] === undefined ? DEFAULT_MAX_CHARS : Number(values["max-chars"]);
  if (!Number.isInteger(maxChars) || maxChars < 500) throw new CliError("--max-chars must be a whole number of at least 500.", EXIT.usage);
  const server = requireServer();
  const { config, call } = server;
  const id = positionals[0];

  let session: Session;
  if (id) {
    session = await callSession<Session>(server, values.project, id, "claim", `cannot claim session "${id}"`);
  } else {
    const project = await resolveProject(server, values.project);
    const res = await call("POST", `/api/projects/${encodeURIComponent(project.slug)}/sessions/claim`);
    session = expectProjectOk<{ session: Session }>(res, "nothing to pick up", project).session;
  }

  const root = config.repoRoot ?? config.cwd;
  const inject = !values["no-inject"];
  const files = inject ? uniquePaths(session.specs ?? [], session.files ?? []).map((p) => readListedFile(root, p)) : [];
  process.stdout.write(renderPickup({ id: session.id, markdown: session.markdown, author: session.author ?? null, createdAt: session.createdAt, files, inject, maxChars }));
  return EXIT.ok;
}
