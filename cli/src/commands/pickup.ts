import { expectProjectOk, requireServer, resolveProject } from "../config/server-context";
import { CliError, EXIT } from "../exit-codes";
import { parseOptions } from "../output/parse-options";
import { readListedFile, uniquePaths } from "./read-listed-file";
import { callSession } from "./session-call";
import { DEFAULT_MAX_CHARS, renderPickup } from "./render-pickup";
import { writeText } from "../output/terminal-safe";

type Session = { id: string; project: string; markdown: string; specs: string[]; files: string[]; author?: string | null; createdAt?: string };

/**
 * How much of a listed file pickup reads: enough for the whole output (a character is at most 3 bytes
 * of UTF-8), and a file up to this size whole, so that a cut one's note can say how many lines it has.
 * A larger file is read only in part (one of several GiB used to be read whole, or crash the command).
 */
const WHOLE_FILE_BYTES = 4 * 1024 * 1024;

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
  const maxBytes = Math.max(maxChars * 3, WHOLE_FILE_BYTES);
  const files = inject ? uniquePaths(session.specs ?? [], session.files ?? []).map((p) => readListedFile(root, p, maxBytes)) : [];
  writeText(process.stdout, renderPickup({ id: session.id, markdown: session.markdown, author: session.author ?? null, createdAt: session.createdAt, files, inject, maxChars }));
  return EXIT.ok;
}
