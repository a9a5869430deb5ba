import { batonVersion } from "@/lib/baton-version";
import { ROOT } from "./server";

/** The version the built CLI and the server name ("0.1.0+<build hash>", lib/baton-version.ts). */
export const BUILT_VERSION = batonVersion(ROOT);

/** The version an older CLI of the tests names itself. */
export const OLDER_VERSION = "0.0.1-old";

/** The one-file CLI's text as an older build of it: the same code naming another version. */
export function asOlderCli(bundle: string): string {
  const older = bundle.replace(/\bCLI_VERSION = [^;\n]+;/, `CLI_VERSION = "${OLDER_VERSION}";`);
  if (older === bundle) throw new Error("the CLI's text no longer sets CLI_VERSION where asOlderCli looks for it");
  return older;
}
