"use client";

import { createContext, useContext, useEffect, useState } from "react";

type Count = { total: number; decided: number; setDecided: (n: number) => void };

const PendingContext = createContext<Count | null>(null);

/**
 * The page's pending count, kept true while proposals are decided (and undone) on the page without a
 * reload: the server's total less the decisions the review queue holds. A new total from the server
 * (another page of the queue, a reload) starts the count again.
 */
export function PendingCountProvider({ total, children }: { total: number; children: React.ReactNode }) {
  const [decided, setDecided] = useState(0);
  const [counted, setCounted] = useState(total);
  if (counted !== total) {
    setCounted(total);
    setDecided(0);
  }
  return <PendingContext value={{ total, decided, setDecided }}>{children}</PendingContext>;
}

/** The number of proposals still pending, as the page header shows it. */
export function PendingCount() {
  const count = useContext(PendingContext);
  if (!count) return null;
  return <strong data-testid="pending-total">{Math.max(0, count.total - count.decided).toLocaleString("en")}</strong>;
}

/** The review queue tells the count how many of its proposals are decided now. */
export function useReportDecided(decided: number): void {
  const setDecided = useContext(PendingContext)?.setDecided;
  useEffect(() => {
    setDecided?.(decided);
  }, [setDecided, decided]);
}
