import type { Metadata } from "next";
import { InsecureConnectionBanner } from "@/components/layout/insecure-connection-banner";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Baton", template: "%s · Baton" },
  description: "The context hub for your coding agents.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <InsecureConnectionBanner />
        {children}
      </body>
    </html>
  );
}
