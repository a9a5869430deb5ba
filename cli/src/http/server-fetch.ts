// Used by the hooks: node built-ins only, and node:https loaded only when a CA of the user's applies.

/** What a request needs of the user's configuration: a CA certificate file to trust beyond Node's own. */
export type Trust = { caFile?: string | null };

/**
 * fetch, or, for an https URL when the user trusts a CA of their own (`caFile`, BATON_CA_FILE), the
 * same request through node:https with that CA added to the ones Node trusts. Node 20's fetch takes no
 * CA option and cannot add to its roots once running; NODE_EXTRA_CA_CERTS, which Node reads at start,
 * is honoured by both. Plain http, or no caFile: fetch as always, and the CA file is never read.
 */
export async function serverFetch(url: string, init: RequestInit, trust: Trust): Promise<Response> {
  if (!trust.caFile || !url.startsWith("https:")) return fetch(url, init);
  const { fetchTrusting } = await import("./fetch-trusting");
  return fetchTrusting(url, init, trust.caFile);
}

/**
 * OpenSSL's verdicts on a certificate chain that leads to no CA this process trusts (SELF_SIGNED_CERT_IN_CHAIN,
 * DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE, UNABLE_TO_GET_ISSUER_CERT[_LOCALLY]).
 * A pattern, not a list: the hook chunks are kept small (test/unit/cli-hook-imports.test.ts).
 */
const UNTRUSTED_CA = /^(?:SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_(?:VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT(?:_LOCALLY)?))$/;

/** Whether a request failed because the server's certificate leads to no CA this process trusts. */
export function isUntrustedCa(code: string | undefined): boolean {
  return UNTRUSTED_CA.test(code ?? "");
}

/** Every verdict of OpenSSL's or Node's on a certificate (CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, the CA's above). */
const CERTIFICATE = /^(?:CERT_|ERR_TLS_|UNABLE_TO_VERIFY_)|SELF_SIGNED/;

/** Whether a request failed on the server's certificate: not a server out of reach. */
export function isCertificateProblem(code: string | undefined): boolean {
  // A handshake that timed out is a server out of reach, not its certificate.
  return isUntrustedCa(code) || (CERTIFICATE.test(code ?? "") && code !== "ERR_TLS_HANDSHAKE_TIMEOUT");
}

/** How to trust the team's CA, for a failure that says its certificate is not trusted; else "". */
export function trustHint(code: string | undefined): string {
  if (!isUntrustedCa(code)) return "";
  return `: its CA is not trusted here; set "caFile" in ~/.config/baton/config.json (or BATON_CA_FILE) to your team's CA certificate, or NODE_EXTRA_CA_CERTS`;
}
