"use client";

import { useState } from "react";
import { useHydrated } from "./use-hydrated";

/** Copies a text to the clipboard. Shown only once JavaScript runs (without it, select the text by hand). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="btn btn-secondary btn-sm"
      onClick={async () => setState((await copyText(text)) ? "copied" : "failed")}
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Select the text and copy it" : label}
    </button>
  );
}

/**
 * Browsers give `navigator.clipboard` to secure contexts only (HTTPS, localhost): a team reaching Baton
 * at a LAN address over plain HTTP (which the README allows, with a banner) has none, and the invitation
 * link and the token are shown once. There the older copy command still works inside a click.
 */
async function copyText(text: string): Promise<boolean> {
  if (navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (a permission, a document without focus): try the copy command below.
    }
  }
  // Selecting the hidden text takes the focus: it goes back where it was (the button, for a keyboard).
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement("textarea");
  area.value = text;
  area.readOnly = true;
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  try {
    // Deprecated, but the only clipboard an insecure context has.
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
    focused?.focus();
  }
}
