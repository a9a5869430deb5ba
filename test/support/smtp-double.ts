import { createServer, type Socket } from "node:net";

/** A mail as the double received it over SMTP: the envelope, the login used, and the raw message. */
export type ReceivedMail = { from: string; to: string[]; auth: string | null; data: string };

/**
 * A local SMTP server speaking just enough of RFC 5321 for a real client (nodemailer) to deliver to it:
 * EHLO with AUTH PLAIN/LOGIN, MAIL, RCPT, DATA, RSET, NOOP, QUIT. A recipient whose address starts with
 * "refuse" gets 550, so a test can watch a delivery fail.
 */
export async function startSmtpDouble(): Promise<{ url: (user?: string, pass?: string) => string; mails: ReceivedMail[]; waitForMail: (to: string, timeoutMs?: number) => Promise<ReceivedMail>; stop: () => Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    serve(socket, mails);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const waitForMail = async (to: string, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = mails.find((m) => m.to.includes(to));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (got ${mails.map((m) => m.to.join(",")).join("; ") || "none"})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return {
    url: (user, pass) => `smtp://${user ? `${user}:${pass}@` : ""}127.0.0.1:${port}`,
    mails,
    waitForMail,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function serve(socket: Socket, mails: ReceivedMail[]): void {
  let buffer = "";
  let mail: ReceivedMail = { from: "", to: [], auth: null, data: "" };
  let auth: string | null = null;
  let state: "command" | "data" | "login-user" | "login-pass" = "command";
  let loginUser = "";
  const reply = (line: string) => socket.write(`${line}\r\n`);
  reply("220 smtp-double ready");
  socket.on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    for (;;) {
      if (state === "data") {
        const end = buffer.indexOf("\r\n.\r\n");
        if (end === -1) return;
        mail.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
        buffer = buffer.slice(end + 5);
        mails.push({ ...mail, auth });
        mail = { from: "", to: [], auth: null, data: "" };
        state = "command";
        reply("250 2.0.0 queued");
        continue;
      }
      const eol = buffer.indexOf("\r\n");
      if (eol === -1) return;
      const line = buffer.slice(0, eol);
      buffer = buffer.slice(eol + 2);
      if (state === "login-user") {
        loginUser = Buffer.from(line, "base64").toString();
        state = "login-pass";
        reply(`334 ${Buffer.from("Password:").toString("base64")}`);
        continue;
      }
      if (state === "login-pass") {
        auth = `${loginUser}:${Buffer.from(line, "base64").toString()}`;
        state = "command";
        reply("235 2.7.0 authenticated");
        continue;
      }
      const [verb = "", ...rest] = line.split(" ");
      const arg = rest.join(" ");
      switch (verb.toUpperCase()) {
        case "EHLO":
          socket.write("250-smtp-double\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n");
          break;
        case "HELO":
          reply("250 smtp-double");
          break;
        case "AUTH": {
          const [mechanism, initial] = arg.split(" ");
          if (mechanism?.toUpperCase() === "PLAIN" && initial) {
            const [, user, pass] = Buffer.from(initial, "base64").toString().split("\0");
            auth = `${user}:${pass}`;
            reply("235 2.7.0 authenticated");
          } else if (mechanism?.toUpperCase() === "LOGIN") {
            state = "login-user";
            reply(`334 ${Buffer.from("Username:").toString("base64")}`);
          } else reply("504 5.5.4 unsupported");
          break;
        }
        case "MAIL":
          mail.from = /<([^>]*)>/.exec(arg)?.[1] ?? "";
          reply("250 2.1.0 ok");
          break;
        case "RCPT": {
          const to = /<([^>]*)>/.exec(arg)?.[1] ?? "";
          if (to.startsWith("refuse")) {
            reply("550 5.1.1 no such mailbox");
          } else {
            mail.to.push(to);
            reply("250 2.1.5 ok");
          }
          break;
        }
        case "DATA":
          state = "data";
          reply("354 end with <CRLF>.<CRLF>");
          break;
        case "RSET":
          mail = { from: "", to: [], auth: null, data: "" };
          reply("250 2.0.0 ok");
          break;
        case "NOOP":
          reply("250 2.0.0 ok");
          break;
        case "QUIT":
          reply("221 2.0.0 bye");
          socket.end();
          return;
        default:
          reply("502 5.5.2 not implemented");
      }
    }
  });
}
