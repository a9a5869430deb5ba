import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { needsSetup } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage() {
  // Offered only on a fresh install: once the admin exists, everyone signs in.
  if (!(await needsSetup())) redirect("/sign-in");
  return (
    <>
      <h1>Welcome to Baton</h1>
      <p className="muted">Create the first account. It becomes the admin of this server; add others later.</p>
      <SetupForm />
    </>
  );
}
