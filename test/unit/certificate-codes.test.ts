import { describe, expect, it } from "vitest";
import { isCertificateProblem } from "@/cli/src/http/server-fetch";

// Which failures the CLI reports as the server's certificate, and which as a server out of reach.
describe("a TLS failure's code", () => {
  it.each(["CERT_HAS_EXPIRED", "ERR_TLS_CERT_ALTNAME_INVALID", "DEPTH_ZERO_SELF_SIGNED_CERT", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "SELF_SIGNED_CERT_IN_CHAIN"])("%s is the certificate", (code) => {
    expect(isCertificateProblem(code)).toBe(true);
  });

  it.each(["ERR_TLS_HANDSHAKE_TIMEOUT", "ECONNREFUSED", "ENOTFOUND", undefined])("%s is not", (code) => {
    expect(isCertificateProblem(code)).toBe(false);
  });
});
