import { CliError, EXIT } from "./exit-codes";

const HELP = `baton — the command line of Baton, the context hub for coding agents

Usage:
  baton admin create-user --email E --password P [--name N]
  baton admin create-token --email E --name N [--scope read|write] [--project SLUG]...

Admin commands act on the database named by DATABASE_URL (default file:./data/baton.db).
Exit codes: 0 ok, 1 failure, 2 usage, 3 conflict (exists already), 4 not found.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case "admin": {
      // Loaded only here: the database layer must never slow the hooks down.
      const { runAdmin } = await import("./admin/run-admin");
      return runAdmin(rest);
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    default:
      throw new CliError(`unknown command "${command}". Run \`baton --help\`.`, EXIT.usage);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CliError) {
      process.stderr.write(`baton: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`baton: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT.failure;
    }
  },
);
