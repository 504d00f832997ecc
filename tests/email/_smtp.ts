/**
 * A fake SMTP server for tests: just enough SMTP for nodemailer, on a free local port; it
 * collects each message's raw DATA (headers and MIME parts) in `messages`.
 */

export interface FakeSmtpServer {
  /** An `SMTP_URL` for it (no TLS). */
  url: string;
  /** The raw DATA of every message received, in order. */
  messages: string[];
  close(): void;
}

/** Just enough SMTP for nodemailer: collects each message's raw DATA. */
export function fakeSmtpServer(): FakeSmtpServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const messages: string[] = [];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const connections: Deno.Conn[] = [];
  async function serveConn(conn: Deno.Conn) {
    const write = (line: string) => conn.write(encoder.encode(line + "\r\n"));
    await write("220 fake ESMTP");
    let buffer = "";
    let inData = false;
    const chunk = new Uint8Array(64 * 1024);
    try {
      while (true) {
        const n = await conn.read(chunk);
        if (n === null) break;
        buffer += decoder.decode(chunk.subarray(0, n));
        while (true) {
          if (inData) {
            const end = buffer.indexOf("\r\n.\r\n");
            if (end < 0) break;
            messages.push(buffer.slice(0, end));
            buffer = buffer.slice(end + 5);
            inData = false;
            await write("250 queued");
            continue;
          }
          const eol = buffer.indexOf("\r\n");
          if (eol < 0) break;
          const line = buffer.slice(0, eol);
          buffer = buffer.slice(eol + 2);
          const verb = line.slice(0, 4).toUpperCase();
          if (verb === "EHLO" || verb === "HELO") await write("250 fake");
          else if (verb === "DATA") {
            inData = true;
            await write("354 go ahead");
          } else if (verb === "QUIT") {
            await write("221 bye");
            conn.close();
            return;
          } else await write("250 ok");
        }
      }
    } catch {
      // connection closed
    }
  }
  (async () => {
    for await (const conn of listener) {
      connections.push(conn);
      serveConn(conn);
    }
  })().catch(() => {});
  const port = (listener.addr as Deno.NetAddr).port;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    close() {
      listener.close();
      for (const c of connections) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
  };
}

/** One part of a received message, its body decoded (quoted-printable, base64 or as is). */
export interface MimePart {
  contentType: string;
  body: string;
}

function headerOf(head: string, name: string): string {
  const unfolded = head.replace(/\r\n[ \t]+/g, " ");
  const match = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded);
  return match?.[1]?.trim() ?? "";
}

function decodePart(body: string, encoding: string): string {
  const bytes: number[] = [];
  if (/base64/i.test(encoding)) {
    return new TextDecoder().decode(
      Uint8Array.from(atob(body.replace(/\s+/g, "")), (c) => c.charCodeAt(0)),
    );
  }
  if (!/quoted-printable/i.test(encoding)) return body;
  const text = body.replace(/=\r?\n/g, "");
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === "=" ? /^[0-9A-F]{2}$/i.exec(text.slice(i + 1, i + 3))?.[0] : undefined;
    if (hex) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...new TextEncoder().encode(text[i]!));
    }
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/**
 * The leaf parts of a raw message as the fake server received it (SMTP dot-stuffing undone):
 * one part for a single-part message, else each part of its (nested) multipart bodies.
 */
export function mimeParts(raw: string): MimePart[] {
  const message = raw.replace(/\r\n\.\./g, "\r\n.");
  const split = message.indexOf("\r\n\r\n");
  const head = split < 0 ? message : message.slice(0, split);
  const body = split < 0 ? "" : message.slice(split + 4);
  const contentType = headerOf(head, "Content-Type");
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!/^multipart\//i.test(contentType) || !boundary) {
    return [{ contentType, body: decodePart(body, headerOf(head, "Content-Transfer-Encoding")) }];
  }
  const sections = body.split(`--${boundary}`).slice(1);
  return sections.filter((section) => !section.startsWith("--"))
    .flatMap((section) => mimeParts(section.replace(/^\r\n/, "").replace(/\r\n$/, "")));
}
