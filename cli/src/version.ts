import { version } from "../../package.json";

/** Set by cli/build.mjs: a hash of the built CLI. Absent when the sources run unbuilt (tests, benches). */
declare const BATON_CLI_BUILD: string | undefined;

/**
 * The version this CLI was built as: package.json's, and the build's hash ("0.1.0+3f2a9c1e0b"), which the
 * server names too (lib/baton-version.ts), so a CLI built from other code than the server's is told so
 * (cli/src/http/version-check.ts) and the plugin's cached copy is fetched again.
 */
export const CLI_VERSION: string = typeof BATON_CLI_BUILD === "string" ? `${version}+${BATON_CLI_BUILD}` : version;
