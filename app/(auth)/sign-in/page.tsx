import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getSessionUser, needsSetup } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  if (await needsSetup()) redirect("/setup");
  if (await getSessionUser()) redirect("/");
  const { next } = await searchParams;
  return (
    <>
      <h1>Sign in</h1>
      <SignInForm next={typeof next === "string" ? next : "/"} />
    </>
  );
}
