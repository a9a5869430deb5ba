import type { NextConfig } from "next";
import { BATON_VERSION } from "./lib/baton-version";
import { NO_CONTENT_POLICY, securityHeaders } from "./lib/security-headers";

/** BATON_BASE_URL's host, when it is a URL (lib/config.ts stops a start with a wrong one). */
function baseUrlHost(value: string | undefined): string[] {
  try {
    return value ? [new URL(value).host] : [];
  } catch {
    return [];
  }
}

const asList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Lets several builds live side by side (parallel work, benchmarks); the default is .next.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // The version the server names, fixed at its build (lib/baton-version.ts).
  env: { BATON_BUILD_VERSION: BATON_VERSION },
  // Loaded by Node rather than bundled, so the copy startup warms (lib/startup.ts) is the one routes use.
  serverExternalPackages: ["gpt-tokenizer"],
  // The test command runs `tsc --noEmit` over the whole tree as its own step; checking again inside
  // every build only slows builds down.
  typescript: { ignoreBuildErrors: true },
  // Migrations are read from drizzle/ at run time by instrumentation.ts.
  outputFileTracingIncludes: { "/*": ["./drizzle/**/*"] },
  typedRoutes: false,
  // Behind a proxy that rewrites Host, the dashboard's forms come from BATON_BASE_URL's host, which
  // Next.js would refuse as another origin (proxy.ts answers the truly foreign ones).
  experimental: { serverActions: { allowedOrigins: baseUrlHost(process.env.BATON_BASE_URL) } },
  // Every API answer names the server's version, so the CLI notices it is out of date from requests it
  // makes anyway (cli/src/http/version-check.ts) instead of asking separately.
  headers: async () => [
    { source: "/api/:path*", headers: [{ key: "Baton-Version", value: BATON_VERSION }] },
    // Everything, static files included; proxy.ts gives the pages and downloads it runs on a page's policy.
    { source: "/:path*", headers: asList(securityHeaders(NO_CONTENT_POLICY)) },
  ],
};

export default nextConfig;
