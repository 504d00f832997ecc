/** `ops serve`: the server, exactly as `deno task start` runs it. */
import type { Command } from "commander";
import { describe } from "../_help.ts";

export function registerServe(program: Command): void {
  const serve = program.command("serve")
    .description(
      "Run the HTTP server (same as `deno task start`; configured by the environment and shop.env)",
    )
    .action(async () => {
      // Loaded only here: the other commands do not pay for the server's modules.
      const { serve } = await import("../../main.ts");
      await serve();
    });
  describe(serve, {
    examples: ["deno task ops serve", "PORT=8080 DATA_DIR=/srv/shop deno task ops serve"],
    env: ["DATABASE_URL", "DATA_DIR", "SHOP_ENV_FILE"],
  });
}
