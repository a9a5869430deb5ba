// Read by the hooks too: node built-ins only.

/**
 * How long to wait for stdin: a hook bounds the whole read (`deadlineMs`, and `maxBytes`), since it
 * must not wait for an input that never ends; a command that takes its body from a pipe waits for
 * the pipe to close once data comes, and takes a pipe that stays silent for `silenceMs` (an agent's
 * shell that never closes it) as empty rather than waiting on it forever.
 */
export type StdinLimits = { deadlineMs: number; maxBytes: number } | { silenceMs: number };

/** What was read, and whether the read stopped before the input's end: past `maxBytes` ("size") or at the time limit ("time"). */
export type StdinRead = { text: string; cut: "size" | "time" | null };

/** All of stdin as text, within `limits`. A terminal (someone trying a command by hand) is no input. */
export async function readStdin(limits: StdinLimits): Promise<string> {
  return (await readStdinWithin(limits)).text;
}

/** readStdin, saying whether the text is cut short (a hook tells "too large" from "not JSON"). */
export function readStdinWithin(limits: StdinLimits): Promise<StdinRead> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve({ text: "", cut: null });
  const patientOnceStarted = "silenceMs" in limits;
  const maxBytes = "maxBytes" in limits ? limits.maxBytes : Infinity;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (cut: StdinRead["cut"] = null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      stdin.pause();
      stdin.unref?.();
      resolve({ text: Buffer.concat(chunks).toString("utf8"), cut });
    };
    const timer = setTimeout(() => done("time"), patientOnceStarted ? limits.silenceMs : limits.deadlineMs);
    stdin.on("data", (chunk: Buffer) => {
      if (patientOnceStarted) clearTimeout(timer);
      size += chunk.length;
      if (size > maxBytes) return done("size");
      chunks.push(chunk);
    });
    stdin.once("end", () => done());
    stdin.once("error", () => done());
  });
}
