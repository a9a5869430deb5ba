/**
 * Which files a learning names (issue 27): paths found in its text and its proposal's evidence, kept on
 * the learning so a later session can tell whether what it is about was touched, deleted or rewritten.
 * Precision first: a word counts only when it can hardly be anything but a path. Prose is full of dots
 * and slashes that are not files ("e.g.", "v1.2.3", "Node.js", "and/or", URLs, dates), and a wrong
 * path here turns into a wrong flag later. Shared by the server and the CLI's session-end worker.
 */

/** The most files one learning keeps: a learning that names more is a list, not a lesson about files. */
export const MAX_NAMED_FILES = 20;

/** Extensions a bare file name (no slash) may end in: common source, config and doc files only. */
const BARE_EXTENSIONS = new Set(
  (
    "ts tsx mts cts js jsx mjs cjs json jsonc json5 md mdx rst txt yml yaml toml ini cfg conf lock " +
    "py rb go rs java kt kts scala swift c h cc cpp hpp cs php pl sh bash zsh fish ps1 sql prisma graphql gql " +
    "css scss sass less html htm vue svelte astro xml csv tsv proto tf hcl gradle mk cmake dockerfile nix lua ex exs erl"
  ).split(" "),
);

/** Files that carry no extension but are files all the same, spelled as projects spell them. */
const EXTENSIONLESS = new Set(["Makefile", "Dockerfile", "Containerfile", "Procfile", "Gemfile", "Rakefile", "Justfile", "Jenkinsfile", "Vagrantfile", "Brewfile", "Caddyfile", "CODEOWNERS"]);

/** Abbreviations that look like files to a naive matcher. */
const ABBREVIATIONS = new Set(["e.g", "i.e", "etc", "a.k.a", "vs", "cf", "n.b", "p.s", "approx", "incl", "no", "fig"]);

/** Library names written like files: "Node.js", "Next.js", "Vue.js" are products, not files. */
const PRODUCT = /^[A-Z][A-Za-z0-9]*\.js$/;

/** A segment of a path: letters, digits and the few marks file names use. */
const SEGMENT = /^[A-Za-z0-9_@+\-.[\]]+$/;
/** An extension: a letter first (so "3.5" or "1.2x" is no file), at most ten characters. */
const EXTENSION = /\.([A-Za-z][A-Za-z0-9]{0,9})$/;
/** Versions and dates: "v1.2.3", "1.2", "2026-11-26", "11/26/2026". */
const VERSION_OR_DATE = /^v?\d+([.\-/]\d+)+[a-z]?$/i;

/** Characters that wrap a path in prose or markdown and are not part of it. */
const WRAP_START = /^[([{<"'`*_]+/;
const WRAP_END = /[)\]}>"'`*_,;:!?.]+$/;
/** A line and column after a path ("src/x.ts:12:3"), as compilers and stack traces write them. */
const LINE_SUFFIX = /:\d+(:\d+)?$/;

/** The path a word names, normalised (no "./" in front), or null when it names none. */
export function pathOf(word: string): string | null {
  let token = word.replace(WRAP_START, "").replace(WRAP_END, "");
  token = token.replace(/'s$/, "").replace(LINE_SUFFIX, "").replace(WRAP_END, "");
  if (!token || token.length > 200) return null;
  // URLs, e-mail addresses, globs, templates, Windows paths and home-relative paths are not files in a repository.
  if (/:\/\/|^www\.|@.*\.|[*?{}$%\\=|,;:]/.test(token) || token.startsWith("~")) return null;
  if (VERSION_OR_DATE.test(token)) return null;
  if (ABBREVIATIONS.has(token.toLowerCase())) return null;
  const explicit = token.startsWith("./") || token.startsWith("../");
  const segments = token.split("/");
  const absolute = token.startsWith("/");
  const parts = segments.filter((s, i) => !(i === 0 && absolute) && !(s === "." && i === 0));
  if (parts.some((s) => !s && s !== parts.at(-1)) || parts.some((s) => s && !SEGMENT.test(s))) return null;
  const last = parts.filter(Boolean).at(-1);
  if (!last || !/[A-Za-z]/.test(last)) return null;
  const ext = EXTENSION.exec(last)?.[1];
  const dotfile = /^\.[A-Za-z][A-Za-z0-9_.-]*$/.test(last);
  if (parts.length === 1 && !absolute && !explicit) {
    // A bare name: a known extensionless file, a dotfile (".env.local"), or a known extension that is not a product's name.
    if (EXTENSIONLESS.has(last)) return last;
    if (dotfile && last.length > 2) return last;
    if (ext && BARE_EXTENSIONS.has(ext.toLowerCase()) && !PRODUCT.test(last) && /^[A-Za-z0-9_.-]+$/.test(last)) return last;
    return null;
  }
  // A path with slashes: its last segment must look like a file, or the path be written as one ("./scripts").
  if (!(ext || dotfile || EXTENSIONLESS.has(last) || explicit)) return null;
  // "and/or", "I/O", "TCP/IP": every segment a short word and no extension is prose; an extension was required above.
  if (ext && PRODUCT.test(last) && parts.length === 1) return null;
  const normal = token.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  return normal || null;
}

/** The files a text names, each once, in the order they first appear. */
export function namedFiles(...texts: (string | null | undefined)[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    for (const word of text.split(/[\s]+/)) {
      // A markdown link "[x](src/x.ts)" and "path(s)" wrap a path in other words.
      for (const piece of word.split(/\]\(|\(|\)/)) {
        const file = pathOf(piece);
        if (file) found.add(file);
        if (found.size >= MAX_NAMED_FILES) return [...found];
      }
    }
  }
  return [...found];
}

/** The files a learning names: its text's, then its proposal's evidence lines' (what the session was doing when it taught it). */
export function learningFiles(content: string, evidence?: { text: string }[] | null): string[] {
  return namedFiles(content, ...(evidence ?? []).map((e) => e.text));
}

/** A path relative to a repository's root: neither absolute, nor above the root. */
export const isRepoRelative = (file: string) => !file.startsWith("/") && !file.startsWith("../") && !file.startsWith("~");
