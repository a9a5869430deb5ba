import { spawn } from "node:child_process";

/**
 * The program that opens a URL in the desktop's browser, or null where there is no desktop to open it
 * on. On Linux and the BSDs only with a display: over SSH, xdg-open would start a text browser in the
 * very terminal that shows the code.
 */
function opener(env: NodeJS.ProcessEnv): { command: string; args: string[] } | null {
  if (process.platform === "darwin") return { command: "open", args: [] };
  if (process.platform === "win32") return { command: "explorer.exe", args: [] };
  return env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim() ? { command: "xdg-open", args: [] } : null;
}

/**
 * Opens `url` in a browser when this machine can, without waiting and without ever failing: a missing
 * opener is the same as none (the URL is printed anyway). True when it tried.
 */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const program = opener(env);
  if (!program) return false;
  try {
    const child = spawn(program.command, [...program.args, url], { detached: true, stdio: "ignore" });
    child.on("error", () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}
