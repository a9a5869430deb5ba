import { version } from "../../package.json";

/** The version this CLI was built as: the server's package.json version, so the two can be compared. */
export const CLI_VERSION: string = version;
