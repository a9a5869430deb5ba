import { headers } from "next/headers";
import { isUnencryptedRemote } from "@/lib/auth/connection-security";
import { getConfig } from "@/lib/config";

/**
 * A warning on every page reached over plain HTTP at a name other than this machine's (a LAN address):
 * passwords and session cookies cross the network readable by anyone on it. Says how to fix it.
 */
export async function InsecureConnectionBanner() {
  if (!isUnencryptedRemote(await headers())) return null;
  const baseUrl = getConfig().baseUrl;
  return (
    <aside className="insecure-banner" aria-label="Unencrypted connection" data-testid="insecure-banner">
      <strong>This connection is not encrypted.</strong>{" "}
      {baseUrl?.startsWith("https://") ? (
        <>
          This server&apos;s address is <a href={baseUrl}>{baseUrl}</a>: open Baton there. Over this address your browser
          will not keep you signed in.
        </>
      ) : (
        <>
          Your password and session travel in clear text to anyone on this network. Serve Baton over HTTPS (for example behind a
          reverse proxy with a certificate) and set <code>BATON_BASE_URL</code> to its <code>https://</code> address.
        </>
      )}
    </aside>
  );
}
