"use client";

import { useEffect } from "react";

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/** Each key and the control it presses in the current entry (the page's plain forms: no state of its own). */
const KEYS: Record<string, (entry: HTMLElement) => HTMLElement | undefined> = {
  m: (e) => button(e, "Merge into this one"),
  s: (e) => button(e, "This one supersedes the other"),
  y: (e) => button(e, "Keep") ?? button(e, "Keep both"),
  e: (e) => summary(e, "Edit"),
  d: (e) => summary(e, "Delete…"),
};

const button = (entry: HTMLElement, label: string) => [...entry.querySelectorAll("button")].find((b) => b.textContent?.trim() === label);
const summary = (entry: HTMLElement, label: string) => [...entry.querySelectorAll("summary")].find((s) => s.textContent?.trim() === label);

/**
 * The tidy-up queue's keys, like the review queue's: j/k (or arrows) move between entries, m merges
 * into the current entry's first learning, s supersedes, y keeps, e and d open edit and delete.
 * Ignored while typing; without JavaScript the buttons do the same.
 */
export function TidyKeys() {
  useEffect(() => {
    let current = -1;
    const entries = () => [...document.querySelectorAll<HTMLElement>("[data-tidy-entry]")];
    const moveTo = (i: number) => {
      const all = entries();
      if (!all.length) return;
      current = Math.max(0, Math.min(all.length - 1, i));
      all.forEach((el, j) => (j === current ? el.setAttribute("data-current", "") : el.removeAttribute("data-current")));
      all[current]!.scrollIntoView({ block: "nearest" });
    };
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement;
      if (TYPING.has(target.tagName) || target.isContentEditable) return;
      if (event.key === "j" || event.key === "ArrowDown") moveTo(current + 1);
      else if (event.key === "k" || event.key === "ArrowUp") moveTo(current - 1);
      else {
        const entry = entries()[current];
        const control = entry && KEYS[event.key]?.(entry);
        if (!control) return;
        control.click();
      }
      event.preventDefault();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <p className="hint kbd-help" aria-label="Keyboard shortcuts">
      <kbd>j</kbd> <kbd>k</kbd> next, previous · <kbd>m</kbd> merge into the first · <kbd>s</kbd> the first supersedes · <kbd>y</kbd> keep ·{" "}
      <kbd>e</kbd> edit · <kbd>d</kbd> delete
    </p>
  );
}
