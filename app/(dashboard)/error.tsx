"use client";

import { ErrorNoticePage } from "@/components/ui/error-notice";

/**
 * A dashboard page that failed while rendering: a page in the dashboard's look rather than a blank
 * one. The server logged the error; the digest lets an operator find it in the log.
 */
export default function DashboardError({ error }: { error: Error & { digest?: string } }) {
  const reference = error.digest ? ` (reference ${error.digest})` : "";
  return (
    <ErrorNoticePage
      title="Something went wrong"
      message={`This page could not be shown${reference}. It has been logged; try again, or go back.`}
      backHref="/"
      backLabel="Back to your projects"
    />
  );
}
