import { IMPORT_PART_ROWS, MAX_PAGE_SIZE, SEED_CATEGORIES, TASK_ID_PATTERN } from "../../../lib/rules";
import { withholdSecrets } from "../../../lib/secrets/withhold-secrets";
import { ApiFailure, Unreachable, errorMessage, expectOk, type ApiCall } from "../http/api-client";
import { readImportFile } from "./import-call";
import { frontMatterList, frontMatterScalars, splitFrontMatter } from "../markdown/split-front-matter";
import type { Found } from "./detect-formats";
import type { ImportSummary } from "./import-summary";

export type ImportContext = {
  call: ApiCall;
  summary: ImportSummary;
  /** The project a file belongs to (created on the server when missing). */
  projectFor: (hint: { slug?: string; repoDir?: string }) => Promise<string>;
  tick: (label: string) => void;
  /** Adds steps to the progress bar: a seed sent in parts is a step per part. */
  more: (steps: number) => void;
};

const SESSION_ID = /^[^\p{Cc}\s]{1,200}$/u;

/** A file that failed is counted and the import goes on; a server out of reach or a token it refuses stops it (every file would fail the same way). */
function fail(ctx: ImportContext, file: string, error: unknown): void {
  if (error instanceof Unreachable || (error instanceof ApiFailure && error.status === 401)) throw error;
  ctx.summary.errors.push({ file, message: error instanceof Error ? error.message : String(error) });
}

type SeedJson = { learned?: Record<string, unknown>; state?: Record<string, unknown> } & Record<string, unknown>;

/** The most a part's items may weigh (JSON): the seed route takes 16 MB, the rest of a part is small. */
const PART_BYTES = 8 * 1024 * 1024;

/**
 * A seed.json as the requests that carry it: the file itself when it holds at most IMPORT_PART_ROWS
 * learned items and proposals weighing at most PART_BYTES, else parts within both, each a seed.json of
 * its own (same version, identity, state and unknown keys, a slice of the items). The server imports
 * each part idempotently, so a part that fails is sent again by running the import again, and no
 * request is large.
 */
export function seedParts(seed: SeedJson, partBytes = PART_BYTES): SeedJson[] {
  const learned = seed.learned && typeof seed.learned === "object" ? seed.learned : {};
  const lists = [...SEED_CATEGORIES.map((c) => learned[c]), seed.state?.proposals];
  if (!lists.every((l) => l === undefined || Array.isArray(l))) return [seed]; // malformed: the server names the field
  const items = lists.flatMap((list, i) => ((list as unknown[] | undefined) ?? []).map((item) => ({ list: i, item, bytes: JSON.stringify(item)?.length ?? 0 })));
  const slices: (typeof items)[] = [[]];
  let weight = 0;
  for (const item of items) {
    const slice = slices.at(-1)!;
    if (slice.length && (slice.length >= IMPORT_PART_ROWS || weight + item.bytes > partBytes)) {
      slices.push([item]);
      weight = item.bytes;
    } else {
      slice.push(item);
      weight += item.bytes;
    }
  }
  if (slices.length === 1) return [seed];
  return slices.map((slice) => {
    const of = (i: number) => slice.filter((s) => s.list === i).map((s) => s.item);
    return {
      ...seed,
      learned: { ...learned, ...Object.fromEntries(SEED_CATEGORIES.map((c, i) => [c, of(i)])) },
      state: { ...seed.state, proposals: of(SEED_CATEGORIES.length) },
    };
  });
}

export async function importSeeds(ctx: ImportContext, files: string[]): Promise<void> {
  for (const file of files) {
    try {
      const seed: unknown = JSON.parse(readImportFile(file));
      if (!seed || typeof seed !== "object" || Array.isArray(seed)) throw new Error("not a seed.json: expected a JSON object");
      const parts = seedParts(seed as SeedJson);
      ctx.more(parts.length - 1);
      const s = ctx.summary.seed;
      s.files++;
      for (const [i, part] of parts.entries()) {
        const res = await ctx.call("POST", "/api/seed/import", part);
        const where = parts.length > 1 ? ` (part ${i + 1} of ${parts.length}; what went before is stored: run the import again to finish)` : "";
        const { imported } = expectOk<{ imported: Omit<ImportSummary["seed"], "files"> }>(res, `the seed was refused${where}`);
        s.learningsAdded += imported.learningsAdded;
        s.learningsSkipped += imported.learningsSkipped;
        s.proposalsAdded += imported.proposalsAdded;
        s.proposalsSkipped += imported.proposalsSkipped;
        if (i < parts.length - 1) ctx.tick("seed");
      }
    } catch (error) {
      fail(ctx, file, error);
    }
    ctx.tick("seed");
  }
}

/** sessionId → markdown of the handoffs a project has, to skip what an earlier import sent. */
async function existingHandoffs(call: ApiCall, slug: string): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const res = await call("GET", `/api/projects/${encodeURIComponent(slug)}/handoffs?limit=${MAX_PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    const page = expectOk<{ items: { sessionId: string | null; markdown: string }[]; nextCursor: string | null }>(res, `cannot list the handoffs of ${slug}`);
    for (const h of page.items) if (h.sessionId) known.set(h.sessionId, h.markdown);
    cursor = page.nextCursor;
  } while (cursor);
  return known;
}

/** An Amplifier handoff as Baton stores it: a line of facts the import would otherwise lose, then the body. */
export function amplifierMarkdown(text: string, sessionId: string): string {
  const { front, body } = splitFrontMatter(text);
  const f = front ? frontMatterScalars(front) : {};
  const files = front ? frontMatterList(front, "files_changed") : [];
  const facts = [`Imported from Amplifier · session ${sessionId}`, f.timestamp, f.duration_turns ? `${f.duration_turns} turns` : null].filter(Boolean);
  let markdown = `${facts.join(" · ")}\n\n${body.replace(/^\s*\n/, "").trimEnd()}\n`;
  if (files.length) markdown += `\nFiles changed: ${files.join(", ")}\n`;
  return markdown;
}

export async function importAmplifier(ctx: ImportContext, items: Found["amplifier"]): Promise<void> {
  // Oldest first: the server dates a handoff when it is written, so the newest must be written last. A
  // file that cannot be read fails alone.
  const parsed: (Found["amplifier"][number] & { text: string; sessionId: string; timestamp: string })[] = [];
  for (const item of items) {
    try {
      const text = readImportFile(item.file);
      const { front } = splitFrontMatter(text);
      const f = front ? frontMatterScalars(front) : {};
      parsed.push({ ...item, text, sessionId: f.session_id ?? item.dirId, timestamp: f.timestamp ?? "" });
    } catch (error) {
      ctx.summary.handoffs.failed++;
      fail(ctx, item.file, error);
      ctx.tick("Amplifier handoffs");
    }
  }
  parsed.sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.file.localeCompare(b.file));
  const known = new Map<string, Map<string, string>>();
  for (const item of parsed) {
    try {
      if (!SESSION_ID.test(item.sessionId)) throw new Error(`"${item.sessionId}" cannot be a session id (no spaces, at most 200 characters)`);
      const slug = await ctx.projectFor({ slug: item.slug });
      if (!known.has(slug)) known.set(slug, await existingHandoffs(ctx.call, slug));
      const existing = known.get(slug)!;
      // Withheld here as the server withholds it: a second import then compares equal (and re-dates nothing).
      const markdown = withholdSecrets(amplifierMarkdown(item.text, item.sessionId));
      if (existing.get(item.sessionId) === markdown) {
        ctx.summary.handoffs.unchanged++;
      } else {
        const res = await ctx.call("POST", `/api/projects/${encodeURIComponent(slug)}/handoffs`, { markdown, sessionId: item.sessionId });
        expectOk(res, "the handoff was refused");
        if (res.status === 201) ctx.summary.handoffs.added++;
        else ctx.summary.handoffs.updated++;
        existing.set(item.sessionId, markdown);
      }
    } catch (error) {
      ctx.summary.handoffs.failed++;
      fail(ctx, item.file, error);
    }
    ctx.tick("Amplifier handoffs");
  }
}

export async function importTaskMemories(ctx: ImportContext, items: Found["memories"]): Promise<void> {
  for (const item of items) {
    try {
      const text = readImportFile(item.file);
      const { front, body } = splitFrontMatter(text);
      const taskId = (front ? frontMatterScalars(front).task_id : undefined) ?? item.taskId;
      if (!TASK_ID_PATTERN.test(taskId)) throw new Error(`"${taskId}" is not a task id`);
      const slug = await ctx.projectFor({ repoDir: item.repoDir });
      const url = `/api/projects/${encodeURIComponent(slug)}/tasks/${encodeURIComponent(taskId)}/memory`;
      const markdown = withholdSecrets(body.replace(/^\s*\n/, ""));
      const current = await ctx.call("GET", url);
      const stored = current.status === 200 ? (current.json as { memory: { markdown: string } }).memory.markdown : null;
      if (current.status !== 200 && current.status !== 404) expectOk(current, "cannot read the task memory");
      if (stored === markdown) {
        ctx.summary.taskMemories.unchanged++;
      } else {
        expectOk(await ctx.call("PUT", url, { markdown }), "the task memory was refused");
        if (stored === null) ctx.summary.taskMemories.added++;
        else ctx.summary.taskMemories.updated++;
      }
    } catch (error) {
      ctx.summary.taskMemories.failed++;
      fail(ctx, item.file, error);
    }
    ctx.tick("task memory");
  }
}

/**
 * An spx session with its file name as the front matter `id`, so importing it twice is a 409 (then
 * compared with what is stored: the same document is "already there", another one is a failure), not a second copy.
 */
export function withSessionId(text: string, id: string): string {
  const { front } = splitFrontMatter(text);
  if (front !== null) {
    if (/^id:/m.test(front)) return text;
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const firstBreak = text.indexOf("\n") + 1;
    return `${text.slice(0, firstBreak)}id: ${JSON.stringify(id)}${eol}${text.slice(firstBreak)}`;
  }
  return `---\nid: ${JSON.stringify(id)}\n---\n${text}`;
}

/** The markdown of a project's session document, to tell an earlier import of the same file from another document with its id. */
async function storedSession(call: ApiCall, slug: string, id: string): Promise<string | null> {
  const res = await call("GET", `/api/projects/${encodeURIComponent(slug)}/sessions/${encodeURIComponent(id)}`);
  if (res.status === 404) return null;
  return expectOk<{ session: { markdown: string } }>(res, `cannot read session ${id} of ${slug}`).session.markdown;
}

export async function importSpx(ctx: ImportContext, items: Found["spx"]): Promise<void> {
  for (const item of items) {
    if (item.status !== "todo") {
      if (item.status === "doing") ctx.summary.sessions.skippedDoing++;
      else ctx.summary.sessions.skippedArchive++;
      ctx.tick("spx sessions");
      continue;
    }
    try {
      const id = TASK_ID_PATTERN.test(item.id) ? item.id : item.id.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 100);
      const slug = await ctx.projectFor({ repoDir: item.repoDir });
      // Withheld here as the server would withhold it: secrets stay home, and a second import compares equal.
      const markdown = withholdSecrets(withSessionId(readImportFile(item.file), id));
      // The id the server keys it by: the file's own front matter id when it has one, else the file name.
      const docId = frontMatterScalars(splitFrontMatter(markdown).front ?? "").id ?? id;
      const res = await ctx.call("POST", `/api/projects/${encodeURIComponent(slug)}/sessions`, { markdown });
      if (res.status === 201) ctx.summary.sessions.added++;
      else if (res.status !== 409) throw new Error(errorMessage(res));
      else if ((await storedSession(ctx.call, slug, docId)) === markdown) ctx.summary.sessions.unchanged++;
      else throw new Error(`${slug} already has another session document with the id "${docId}": not imported (give the file another id and import again)`);
    } catch (error) {
      ctx.summary.sessions.failed++;
      fail(ctx, item.file, error);
    }
    ctx.tick("spx sessions");
  }
}
