import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./server";

type Manifest = { node: Record<string, { exportedName?: string; filename?: string }> };

/** A server action's id in the build (.next/server/server-reference-manifest.json), by its exported name. */
export function actionId(name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, ".next/server/server-reference-manifest.json"), "utf8")) as Manifest;
  const found = Object.entries(manifest.node).filter(([, entry]) => entry.exportedName === name);
  if (found.length !== 1) throw new Error(`${found.length} server actions named ${name} in the build`);
  return found[0]![0];
}

export type ActionReply = { status: number; text: string; /** The action's return value, when the answer carries one. */ result: unknown };

/**
 * Calls a server action as a page's script does (what a hand-made request can do too): POST to a page
 * with the action's id in Next-Action and its arguments as the body, JSON text unless `contentType`
 * says otherwise. `cookie`: a session, as signInCookie answers it.
 */
export async function callAction(
  baseUrl: string,
  options: { name: string; page: string; body: string; cookie?: string; contentType?: string },
): Promise<ActionReply> {
  const res = await fetch(`${baseUrl}${options.page}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "next-action": actionId(options.name),
      "content-type": options.contentType ?? "text/plain;charset=UTF-8",
      accept: "text/x-component",
      origin: baseUrl,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.body,
  });
  const text = await res.text();
  return { status: res.status, text, result: actionResult(text) };
}

/** The action's return value in a flight answer: the row `1:` (row 0 is the page's tree and the value's reference). */
function actionResult(text: string): unknown {
  const row = text.split("\n").find((line) => line.startsWith("1:"));
  if (!row) return undefined;
  try {
    return JSON.parse(row.slice(2));
  } catch {
    return undefined;
  }
}
