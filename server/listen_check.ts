/**
 * Before the server opens (and maybe creates and migrates) its database: can it listen where
 * it is configured to? A port already taken is one line naming the port and, when this
 * machine says (Linux `/proc`, processes of the same user), the program holding it.
 */

/** The server cannot listen at its configured address; the message names the fix. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

/** `0100007F:1F40` (little-endian IPv4 or IPv6 in hex, port in hex) → 8000. */
function portOf(localAddress: string): number {
  return parseInt(localAddress.slice(localAddress.lastIndexOf(":") + 1), 16);
}

/** The socket inodes listening on `port` over TCP (empty when /proc cannot tell). */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = Deno.readTextFileSync(table);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (10th); st 0A is LISTEN.
      if (fields.length > 9 && fields[3] === "0A" && portOf(fields[1]!) === port) {
        inodes.add(fields[9]!);
      }
    }
  }
  return inodes;
}

/** The process holding one of `inodes` open: `pid 123 (deno run -A main.ts)`. */
function holderOf(inodes: Set<string>): string | undefined {
  if (inodes.size === 0) return undefined;
  const sockets = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  try {
    for (const entry of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      try {
        for (const fd of Deno.readDirSync(`/proc/${entry.name}/fd`)) {
          const target = Deno.readLinkSync(`/proc/${entry.name}/fd/${fd.name}`);
          if (!sockets.has(target)) continue;
          const command = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`)
            .split("\0").filter(Boolean).join(" ");
          const shown = command.length > 80 ? `${command.slice(0, 77)}...` : command;
          return `pid ${entry.name}${shown ? ` (${shown})` : ""}`;
        }
      } catch {
        // Another user's process, or gone meanwhile.
      }
    }
  } catch {
    // No /proc here.
  }
  return undefined;
}

/** One line for a port already in use: which port, who holds it (when known), the fix. */
export function portInUseMessage(host: string, port: number): string {
  const holder = holderOf(listeningInodes(port));
  return `Cannot listen on ${host}:${port}: the port is already in use` +
    (holder ? ` by ${holder}` : " by another program") +
    ". Fix: stop that program, or set PORT to a free port (PORT=0 picks one).";
}

/** Refuses (ListenError) when the server could not listen at `host:port` (port 0: any). */
export function assertCanListen(host: string, port: number): void {
  if (port === 0) return;
  let listener: Deno.Listener;
  try {
    listener = Deno.listen({ hostname: host, port });
  } catch (error) {
    if (error instanceof Deno.errors.AddrInUse) {
      throw new ListenError(portInUseMessage(host, port));
    }
    const cause = error instanceof Error ? error.message : String(error);
    throw new ListenError(
      `Cannot listen on ${host}:${port}: ${cause}. Fix: correct HOST and PORT` +
        (port < 1024 ? " (ports below 1024 need privileges: use one above)" : "") + ".",
    );
  }
  listener.close();
}
