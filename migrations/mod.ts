/**
 * Every migration, in order. Names are frozen in time (`YYYYMMDD_HHMMSS_verb_noun`); a new
 * migration is appended here and never edited once it has landed.
 */
import type { Migration } from "kysely/migration";
import * as createPlatform from "./20261121_090000_create_platform.ts";

export const migrations: Record<string, Migration> = {
  "20261121_090000_create_platform": createPlatform,
};
