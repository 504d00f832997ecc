/** `ops serve`: the server, exactly as `deno task start` runs it. */
import type { Command } from "commander";
import { serve } from "../../main.ts";

export function registerServe(program: Command): void {
  program.command("serve")
    .description("Run the HTTP server (same as `deno task start`; configured by environment)")
    .action(async () => {
      await serve();
    });
}
