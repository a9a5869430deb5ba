import type { Metadata } from "next";
import { connection } from "next/server";
import { InsecureConnectionBanner } from "@/components/layout/insecure-connection-banner";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Baton", template: "%s · Baton" },
  description: "The context hub for your coding agents.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, never at build time: only then can Next.js put the request's CSP
  // nonce (proxy.ts) on the page's scripts, and the policy refuses scripts without it.
  await connection();
  return (
    <html lang="en">
      <body>
        <InsecureConnectionBanner />
        {children}
      </body>
    </html>
  );
}
