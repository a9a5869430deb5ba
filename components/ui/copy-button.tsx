"use client";

import { useState } from "react";
import { useHydrated } from "./use-hydrated";

/** Copies a text to the clipboard. Shown only once JavaScript runs (without it, select the text by hand). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopied(true);
      }}
    >
      {copied ? "Copied" : label}
    </button>
  );
}
