import type { NextConfig } from "next";
import { version } from "./package.json";
import { NO_CONTENT_POLICY, securityHeaders } from "./lib/security-headers";

const asList = (headers: Record<string, string>) => Object.entries(headers).map(([key, value]) => ({ key, value }));

const nextConfig: NextConfig = {
  // Lets several builds live side by side (parallel work, benchmarks); the default is .next.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  poweredByHeader: false,
  // Loaded by Node rather than bundled, so the copy startup warms (lib/startup.ts) is the one routes use.
  serverExternalPackages: ["gpt-tokenizer"],
  // The test command runs `tsc --noEmit` over the whole tree as its own step; checking again inside
  // every build only slows builds down.
  typescript: { ignoreBuildErrors: true },
  // Migrations are read from drizzle/ at run time by instrumentation.ts.
  outputFileTracingIncludes: { "/*": ["./drizzle/**/*"] },
  typedRoutes: false,
  // Every API answer names the server's version, so the CLI notices it is out of date from requests it
  // makes anyway (cli/src/http/version-check.ts) instead of asking separately.
  headers: async () => [
    { source: "/api/:path*", headers: [{ key: "Baton-Version", value: version }] },
    // Everything, static files included; proxy.ts gives the pages and downloads it runs on a page's policy.
    { source: "/:path*", headers: asList(securityHeaders(NO_CONTENT_POLICY)) },
  ],
};

export default nextConfig;
