/**
 * The shop's settings file (`shop.env`, app/settings_file.ts, read through app/config.ts by
 * the server and `ops` alike): what it may hold, that the environment wins over it (even set
 * empty), that a misspelt name stops start-up naming the file and line, and that rewriting it
 * keeps the owner's comments and lines and leaves it private.
 */
import { assertEquals, assertStringIncludes, assertThrows } from "../_helpers/assert.ts";
import {
  ConfigError,
  loadShopConfig,
  settingsFilePath,
  shopEnvironment,
} from "../../app/config.ts";
import { parseSettings, updateSettingsFile } from "../../app/settings_file.ts";
import { removeDir } from "../_helpers/processes.ts";

const KNOWN = new Set(["DATABASE_URL", "FILES_DIR", "PORT", "MAIL_FROM"]);

Deno.test("parseSettings() reads NAME=value lines, quotes, comments and `export`", () => {
  const parsed = parseSettings(
    [
      "# the shop",
      "",
      "export PORT=8080",
      "DATABASE_URL = postgres://shop@db/shop   # trailing comment",
      "FILES_DIR='/srv/shop files/#1'",
      'MAIL_FROM="Shop \\"Main\\" <shop@example.com>"',
    ].join("\n"),
    KNOWN,
  );
  assertEquals(parsed.problems, []);
  assertEquals(parsed.values, {
    PORT: "8080",
    DATABASE_URL: "postgres://shop@db/shop",
    FILES_DIR: "/srv/shop files/#1",
    MAIL_FROM: 'Shop "Main" <shop@example.com>',
  });
});

Deno.test("parseSettings() names the line of a misspelt variable or a malformed line", () => {
  const parsed = parseSettings("PORT=1\nDATABSE_URL=x\nnot a setting\nFILES_DIR='open", KNOWN);
  assertEquals(parsed.problems, [
    { line: 2, message: "unknown variable DATABSE_URL" },
    { line: 3, message: "expected NAME=value" },
    { line: 4, message: "unterminated quote in FILES_DIR" },
  ]);
});

Deno.test("the environment wins over the settings file, also when set empty", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shop-settings-" });
  try {
    const file = `${dir}/shop.env`;
    await Deno.writeTextFile(file, "DATABASE_URL=postgres://shop@db/shop\nPORT=8081\n");
    const env = { SHOP_ENV_FILE: file };
    assertEquals(settingsFilePath({}), "shop.env");
    assertEquals(settingsFilePath(env), file);
    const fromFile = loadShopConfig(env);
    assertEquals([fromFile.databaseUrl, fromFile.port], ["postgres://shop@db/shop", 8081]);
    const overridden = loadShopConfig({ ...env, PORT: "9000", DATABASE_URL: "" });
    assertEquals([overridden.databaseUrl, overridden.port], [undefined, 9000]);
    // No file: the environment alone.
    assertEquals(shopEnvironment({ SHOP_ENV_FILE: `${dir}/none.env`, PORT: "1" }), {
      SHOP_ENV_FILE: `${dir}/none.env`,
      PORT: "1",
    });

    await Deno.writeTextFile(file, "PORT=8081\nDATABSE_URL=postgres://x/y\n");
    const error = assertThrows(() => loadShopConfig(env), ConfigError);
    assertStringIncludes(error.message, `${file}:2: unknown variable DATABSE_URL`);
    await Deno.writeTextFile(file, "PORT=eighty\n");
    assertStringIncludes(assertThrows(() => loadShopConfig(env), ConfigError).message, "PORT");
  } finally {
    await removeDir(dir);
  }
});

Deno.test("updateSettingsFile() sets and removes variables, keeps the rest, mode 0600", async () => {
  const dir = await Deno.makeTempDir({ prefix: "shop-settings-" });
  try {
    const file = `${dir}/shop.env`;
    await updateSettingsFile(file, { DATABASE_URL: "postgres://a:p w@db/shop" }, "# header");
    assertEquals(
      await Deno.readTextFile(file),
      '# header\nDATABASE_URL="postgres://a:p w@db/shop"\n',
    );
    assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600);

    await Deno.writeTextFile(file, "# mine\nPORT=8080\nDATABASE_URL=postgres://old/shop\n");
    await updateSettingsFile(file, { DATABASE_URL: undefined, FILES_DIR: "/srv/files" }, "# x");
    assertEquals(await Deno.readTextFile(file), "# mine\nPORT=8080\nFILES_DIR=/srv/files\n");
    const read = parseSettings(await Deno.readTextFile(file), KNOWN);
    assertEquals(read.values, { PORT: "8080", FILES_DIR: "/srv/files" });
    await updateSettingsFile(file, { DATABASE_URL: "postgres://a:p w@db/shop" }, "# x");
    assertEquals(
      parseSettings(await Deno.readTextFile(file), KNOWN).values.DATABASE_URL,
      "postgres://a:p w@db/shop",
    );
  } finally {
    await removeDir(dir);
  }
});
