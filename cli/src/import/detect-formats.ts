import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Which of the importable formats a path holds: a pai-seed `seed.json`; Amplifier handoffs
 * (`projects/<slug>/sessions/<id>/handoff.md`); task memory (`backlog/memory/<task-id>.md`); spx
 * sessions (`.spx/sessions/{todo,doing,archive}/<id>.md`). Recognised by where a file sits, so a
 * path may be the file itself, the folder that holds the layout, or anything above it.
 */
export type Found = {
  seeds: string[];
  amplifier: { file: string; slug: string; dirId: string }[];
  memories: { file: string; taskId: string; repoDir: string }[];
  spx: { file: string; status: "todo" | "doing" | "archive"; id: string; repoDir: string }[];
};

const SKIP = new Set(["node_modules", ".git", ".next", "dist", "build", ".cache"]);
const MAX_DEPTH = 12;

function classify(file: string, found: Found): void {
  const parts = path.resolve(file).split(path.sep);
  const n = parts.length;
  const name = parts[n - 1]!;
  if (name === "handoff.md" && parts[n - 3] === "sessions" && parts[n - 5] === "projects" && n >= 5) {
    found.amplifier.push({ file, slug: parts[n - 4]!, dirId: parts[n - 2]! });
  } else if (name.endsWith(".md") && parts[n - 2] === "memory" && parts[n - 3] === "backlog") {
    found.memories.push({ file, taskId: name.slice(0, -3), repoDir: parts.slice(0, n - 3).join(path.sep) || path.sep });
  } else if (name.endsWith(".md") && parts[n - 3] === "sessions" && parts[n - 4] === ".spx" && ["todo", "doing", "archive"].includes(parts[n - 2]!)) {
    found.spx.push({ file, status: parts[n - 2] as "todo", id: name.slice(0, -3), repoDir: parts.slice(0, n - 4).join(path.sep) || path.sep });
  } else if (name === "seed.json") {
    found.seeds.push(file);
  }
}

function walk(dir: string, depth: number, found: Found): void {
  if (depth > MAX_DEPTH) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (SKIP.has(entry.name) || (entry.name.startsWith(".") && entry.name !== ".spx")) continue;
      walk(full, depth + 1, found);
    } else if (entry.isFile()) {
      classify(full, found);
    }
  }
}

export function detectFormats(target: string): Found {
  const found: Found = { seeds: [], amplifier: [], memories: [], spx: [] };
  const full = path.resolve(target);
  if (statSync(full).isDirectory()) {
    walk(full, 0, found);
  } else {
    classify(full, found);
    // Any JSON file named on the command line may be a seed, whatever its name.
    if (!found.seeds.length && !found.amplifier.length && !found.memories.length && !found.spx.length && full.endsWith(".json")) found.seeds.push(full);
  }
  return found;
}

export const foundCount = (f: Found) => f.seeds.length + f.amplifier.length + f.memories.length + f.spx.length;
