import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { connectSnippets } from "../../lib/dashboard/connect-snippets";
import { ROOT } from "./server";

/**
 * Every `baton …` command people are shown: in the dashboard's source (app/, components/, and the
 * connect page's snippets as lib/dashboard/connect-snippets.ts makes them) and in README.md's code
 * (fenced blocks and inline spans). Each is returned as written, with where it was found.
 */
export type ShownCommand = { text: string; where: string };

// A command starts at the word `baton` (not `baton@baton`, `~/.config/baton`) followed by what a
// command or option looks like, and ends where the code around it ends, at a shell comment, pipe or
// list, and in source also where the markup or string ends, an escaped backtick of a template string
// included (README's `<id>` is a placeholder).
const START = /(?<![\w@./-])baton (?=[a-z<[{"-])/g;
const END_IN_CODE = /[`\n)]| #| \| |; | && /;
const END_IN_SOURCE = /[<"'`\n)\\]| #| \| |; | && /;

function commandsIn(text: string, where: string, end = END_IN_SOURCE): ShownCommand[] {
  const found: ShownCommand[] = [];
  for (const match of text.matchAll(START)) {
    const rest = text.slice(match.index);
    const cut = rest.search(end);
    const command = (cut < 0 ? rest : rest.slice(0, cut)).trim().replace(/[.,;:]+$/, "");
    found.push({ text: command, where });
  }
  return found;
}

/** Source without its comments: they are not shown to anyone. */
const withoutComments = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

export function dashboardCommands(): ShownCommand[] {
  const fromSource = [...sourceFiles("app"), ...sourceFiles("components")].flatMap((file) => commandsIn(withoutComments(readFileSync(path.join(ROOT, file), "utf8")), file));
  const snippets = Object.entries(connectSnippets("https://baton.example")).flatMap(([name, text]) => commandsIn(text, `connect snippet ${name}`));
  return [...fromSource, ...snippets];
}

export function readmeCommands(): ShownCommand[] {
  // A table cell escapes its pipes.
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8").replaceAll("\\|", "|");
  const fenced = [...readme.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  const prose = readme.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "");
  const inline = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  return [...fenced, ...inline].flatMap((code) => commandsIn(code, "README.md", END_IN_CODE));
}

/** Stand-ins for the placeholders commands are shown with. */
const STAND_INS: Record<string, string> = {
  "<command>": "doctor",
  "<event>": "session-start",
  "<agent>": "claude",
  "<project>": "web",
  "{slug}": "web",
  "<path>": "seed.json",
  "<taskId>": "task-1",
  "<id>": "s-1",
};

/**
 * The arguments a shown command stands for: quotes and optional brackets taken off, placeholders
 * filled, the first of alternatives (each alternative when it is the subcommand), an elided value
 * after an option (`--spec …`) given one, an elision anywhere else (`baton session …`) dropped.
 */
export function argumentsOf(text: string): string[][] {
  const words = text
    .replace(/^baton /, "")
    .replace(/[[\]]/g, "")
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replace(/^"(.*)"$/, "$1"));
  const args: string[] = [];
  for (const word of words) {
    const value = STAND_INS[word] ?? word.replace(/<[^>]+>|\{[^}]+\}/g, "x");
    if (value === "…") {
      if (args.at(-1)?.startsWith("-")) args.push("x");
      continue;
    }
    args.push(value.replace(/…$/, ""));
  }
  const alternatives = (i: number) => (args[i] && !args[i]!.startsWith("-") && args[i]!.includes("|") ? args[i]!.split("|") : [args[i]]);
  const first = args.map((a, i) => (i === 1 ? a : (alternatives(i)[0] ?? a)));
  return alternatives(1).map((sub) => first.map((a, i) => (i === 1 ? sub! : a)).filter((a) => a !== undefined));
}
