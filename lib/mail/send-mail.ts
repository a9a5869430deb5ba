import "server-only";
import { createTransport, type Transporter } from "nodemailer";
import { getConfig } from "../config";
import { processWide } from "../process/process-state";

/**
 * Seconds a mail server may take to answer at each step. Mail is sent after the response, so nobody
 * waits on these; they only keep a dead server from holding a connection for nodemailer's 2 minutes.
 */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

export type Mail = { to: string; subject: string; text: string };

/** Whether this server mails (BATON_SMTP_URL is set). */
export const mailConfigured = (): boolean => getConfig().smtp !== null;

/** Sends one plain-text mail through BATON_SMTP_URL from BATON_SMTP_FROM; throws what the server refused. */
export async function sendMail(mail: Mail): Promise<void> {
  const smtp = getConfig().smtp;
  if (!smtp) throw new Error("BATON_SMTP_URL is not set");
  await transport(smtp.url).sendMail({ from: smtp.from, ...mail });
}

/** One transport for the process (the configuration never changes while it runs). */
const transport = (url: string): Transporter =>
  processWide("mail transport", () => createTransport({ url, connectionTimeout: CONNECT_TIMEOUT_MS, greetingTimeout: CONNECT_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS }));
