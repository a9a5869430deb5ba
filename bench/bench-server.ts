import { runCli } from "../test/support/cli";
import { startServer, tempDir, type RunningServer } from "../test/support/server";

// A load generator sends far more than a person's tokens may: a limit this high still runs the limiter.
export const BENCH_ENV = { BATON_RATE_LIMIT: "1000000" };

export type BenchServer = { server: RunningServer; token: string; dir: string; stop: () => Promise<void> };

/**
 * The real built server on a fresh database file in a temp folder, with one user and a write token
 * made by the real admin CLI. The folder (`dir`) may hold more; `stop` stops the server and removes it.
 */
export async function startBenchServer(options: { tempPrefix: string; tokenName: string; userName?: string }): Promise<BenchServer> {
  const tmp = tempDir(options.tempPrefix);
  const databaseUrl = `file:${tmp.dir}/bench.db`;
  let server: RunningServer | undefined;
  const stop = async () => {
    await server?.stop();
    tmp.remove();
  };
  try {
    server = await startServer({ databaseUrl, env: BENCH_ENV });
    const env = { DATABASE_URL: databaseUrl };
    const email = "bench@example.com";
    const name = options.userName ? ["--name", options.userName] : [];
    const user = await runCli(["admin", "create-user", "--email", email, "--password", "benchmark password 1", ...name], { env });
    if (user.code !== 0) throw new Error(`create-user failed: ${user.stderr}`);
    const tok = await runCli(["admin", "create-token", "--email", email, "--name", options.tokenName, "--scope", "write"], { env });
    if (tok.code !== 0) throw new Error(`create-token failed: ${tok.stderr}`);
    return { server, token: tok.stdout.trim(), dir: tmp.dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
