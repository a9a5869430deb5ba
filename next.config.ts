import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Migrations are read from drizzle/ at run time by instrumentation.ts.
  outputFileTracingIncludes: { "/*": ["./drizzle/**/*"] },
  typedRoutes: false,
};

export default nextConfig;
