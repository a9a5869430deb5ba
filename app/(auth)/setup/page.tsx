import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { isLoopbackDirect } from "@/lib/auth/connection-security";
import { needsSetup } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage() {
  // Offered only on a fresh install: once the admin exists, everyone signs in.
  if (!(await needsSetup())) redirect("/sign-in");
  return (
    <>
      <h1>Welcome to Baton</h1>
      <p className="muted">Create the first account. It becomes the admin of this server; add others later.</p>
      {/* From another machine, the setup code proves the person setting up can see the server's console. */}
      <SetupForm askForCode={!isLoopbackDirect(await headers())} />
    </>
  );
}
