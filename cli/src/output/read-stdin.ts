/**
 * All of stdin for a command that takes its body from a pipe. A terminal is no input; a pipe that
 * stays silent for `silenceMs` (an agent's shell that never closes it) is taken as empty rather
 * than waited on forever.
 */
export function readPipedStdin(silenceMs = 2000): Promise<string> {
  const stdin = process.stdin;
  if (stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      stdin.pause();
      stdin.unref?.();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(done, silenceMs);
    stdin.on("data", (chunk: Buffer) => {
      clearTimeout(timer);
      chunks.push(chunk);
    });
    stdin.once("end", done);
    stdin.once("error", done);
  });
}
