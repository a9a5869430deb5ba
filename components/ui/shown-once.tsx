"use client";

import { useState } from "react";

/** A secret shown this once (a new token, an invitation link), with its message and a button to copy it. */
export function ShownOnce({ text, message, testId }: { text: string; message: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="notice notice-ok new-token" role="status">
      <p>{message}</p>
      <div className="copy-row">
        <code data-testid={testId}>{text}</code>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={async () => {
            await navigator.clipboard.writeText(text);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
