import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError, EXIT } from "../exit-codes";

/** node:util parseArgs, strict, with its errors turned into usage errors (exit 2). */
export function parseOptions<const O extends NonNullable<ParseArgsConfig["options"]>>(args: string[], options: O, maxPositionals = 0) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: maxPositionals > 0 });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT.usage);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new CliError(`unexpected argument "${parsed.positionals[maxPositionals]}".`, EXIT.usage);
  }
  return parsed;
}

export function requireArg(value: string | undefined, what: string): string {
  if (!value) throw new CliError(`${what} is required.`, EXIT.usage);
  return value;
}
