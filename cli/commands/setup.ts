/**
 * `ops setup`: the shop's first-run step (README "Setting up the shop"). The store's name,
 * address, phone and email, its time zone, the currency and tax rates, the first location and
 * its register: asked on a terminal when no option is given, taken from options otherwise.
 * While the shop is not set up yet (domain/platform/store_setup.ts) options must name every
 * setting, so a shop never starts on the placeholders without being told.
 *
 * It calls the same use cases as `PATCH /store`, `PATCH /config`, `POST|PATCH /locations` and
 * `POST|PATCH /registers`: on the database directly (as the system), or through the server
 * that holds it with your `ops login` (which then needs settings.edit, settings.admin and
 * pos.admin). Safe to run again: it changes only what differs, finds the location and register
 * by name (or renames the only one), never adds a second, and says what it changed. Every
 * option is checked before anything is written: one line per mistake (exit 2).
 */
import type { Command } from "commander";
import { SYSTEM_ACTOR } from "../../app/actor.ts";
import type { AppDeps } from "../../app/deps.ts";
import { createLocation, updateLocation } from "../../app/platform/locations.ts";
import {
  findLocation,
  findLocationIdsByIdOrName,
  listLocations,
} from "../../app/platform/locations_repo.ts";
import { getRuntimeConfig } from "../../app/platform/runtime_config.ts";
import { updateRuntimeConfig } from "../../app/platform/settings.ts";
import { updateStoreSettings } from "../../app/platform/store.ts";
import { findStore } from "../../app/platform/store_repo.ts";
import { changeRegister, createRegister } from "../../app/pos/registers.ts";
import { listRegisters } from "../../app/pos/registers_repo.ts";
import type { ApiClient } from "../_api.ts";
import { UsageError } from "../_errors.ts";
import { BUSINESS_ENV, describe } from "../_help.ts";
import { outputFormat, printRows, printText, withFormatOptions } from "../_output.ts";
import { run } from "../_transport.ts";
import { askSetup } from "./_setup_questions.ts";
import {
  ADDRESS_FLAGS,
  type AddressPart,
  type LocationState,
  missingForFirstSetup,
  type NamedRecord,
  needsFirstSetup,
  parseAddressPart,
  parseCurrency,
  type Parsed,
  parseEmail,
  parseLocationName,
  parsePhone,
  parseRegisterName,
  parseStoreName,
  parseTaxRate,
  parseTimeZone,
  type SetupRequest,
  type ShopState,
} from "./_setup_plan.ts";
import { applySetup, type Change, type SetupShop } from "./_setup_apply.ts";

interface SetupOptions {
  storeName?: string;
  timezone?: string;
  currency?: string;
  taxRate?: string[];
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  phone?: string;
  email?: string;
  location?: string;
  register?: string;
  json?: boolean;
  format?: string;
}

const FIRST_PAGE = { page: 1, limit: 100, q: undefined, sort: "name", order: "asc" } as const;

/** The store's fields setup is about (not its logo or timestamps). */
function storeFields(store: ShopState["store"]): ShopState["store"] {
  const { name, timezone, address, phone, email } = store;
  return { name, timezone, address, phone, email };
}

/** On the database directly, through the use cases (actor: the system). */
export function directShop(deps: AppDeps): SetupShop {
  return {
    async read(locationName) {
      const store = storeFields(await findStore(deps.db));
      const config = await getRuntimeConfig(deps.db);
      const locations: LocationState[] = (await listLocations(deps.db, FIRST_PAGE)).data;
      for (const id of locationName ? await findLocationIdsByIdOrName(deps.db, locationName) : []) {
        const found = await findLocation(deps.db, id);
        if (found && !locations.some((l) => l.id === id)) locations.push(found);
      }
      return { store, currency: config.currency, taxRates: config.taxRates, locations };
    },
    async registersAt(locationId) {
      return (await listRegisters(deps.db, { ...FIRST_PAGE, locationId })).data;
    },
    async updateStore(changes) {
      await updateStoreSettings(deps, changes);
    },
    async updateConfig(patch) {
      await updateRuntimeConfig(deps, SYSTEM_ACTOR, patch);
    },
    createLocation: (input) => createLocation(deps, SYSTEM_ACTOR, input),
    async updateLocation(id, changes) {
      await updateLocation(deps, SYSTEM_ACTOR, id, changes);
    },
    createRegister: (input) => createRegister(deps, input),
    async renameRegister(id, name) {
      await changeRegister(deps, id, { name });
    },
  };
}

/** Through the server's API with the session's token. */
function apiShop(api: ApiClient): SetupShop {
  type Page<T> = { data: T[] };
  const list = { limit: 100, sort: "name" };
  return {
    async read(locationName) {
      const store = storeFields(await api.request<ShopState["store"]>("GET", "/store"));
      const config = await api.request<Pick<ShopState, "currency" | "taxRates">>("GET", "/config");
      const locations = (await api.request<Page<LocationState>>("GET", "/locations", {
        query: list,
      })).data;
      if (locationName) {
        const named = await api.request<Page<LocationState>>("GET", "/locations", {
          query: { ...list, q: locationName },
        });
        for (const l of named.data) if (!locations.some((x) => x.id === l.id)) locations.push(l);
      }
      return { store, currency: config.currency, taxRates: config.taxRates, locations };
    },
    async registersAt(locationId) {
      return (await api.request<Page<NamedRecord>>("GET", "/registers", {
        query: { ...list, locationId },
      })).data;
    },
    async updateStore(changes) {
      await api.request("PATCH", "/store", { body: changes });
    },
    async updateConfig(patch) {
      await api.request("PATCH", "/config", { body: patch });
    },
    createLocation: (input) => api.request("POST", "/locations", { body: input }),
    async updateLocation(id, changes) {
      await api.request("PATCH", `/locations/${id}`, { body: changes });
    },
    createRegister: (input) => api.request("POST", "/registers", { body: input }),
    async renameRegister(id, name) {
      await api.request("PATCH", `/registers/${id}`, { body: { name } });
    },
  };
}

/**
 * The options as a request, each checked; every mistake is one line of one usage error (exit
 * 2), before anything is opened.
 */
export function requestFromOptions(options: SetupOptions): SetupRequest {
  const problems: string[] = [];
  const request: SetupRequest = {};
  function take<T>(flag: string, raw: string | undefined, parse: (raw: string) => Parsed<T>) {
    if (raw === undefined) return undefined;
    const parsed = parse(raw);
    if ("value" in parsed) return parsed.value;
    problems.push(`${flag}: ${parsed.problem}`);
    return undefined;
  }
  request.storeName = take("--store-name", options.storeName, parseStoreName);
  request.timezone = take("--timezone", options.timezone, parseTimeZone);
  request.currency = take("--currency", options.currency, parseCurrency);
  for (const given of options.taxRate ?? []) {
    const [, category, rate] = /^(?:(\w+)=)?(.*)$/.exec(given.trim())!;
    const categories = category ? [category.toLowerCase()] : ["goods", "service"];
    if (categories.some((c) => c !== "goods" && c !== "service")) {
      problems.push(
        `--tax-rate: ${JSON.stringify(category)} is no tax category: give RATE for both, or ` +
          "goods=RATE and service=RATE",
      );
      continue;
    }
    const value = take("--tax-rate", rate!, parseTaxRate);
    if (value === undefined) continue;
    request.taxRates ??= {};
    for (const c of categories) request.taxRates[c as "goods" | "service"] = value;
  }
  const raw: Record<AddressPart, string | undefined> = {
    line1: options.addressLine1,
    line2: options.addressLine2,
    city: options.city,
    state: options.state,
    postalCode: options.postalCode,
    country: options.country,
  };
  for (const part of Object.keys(raw) as AddressPart[]) {
    const value = take(ADDRESS_FLAGS[part], raw[part], (r) => parseAddressPart(part, r));
    if (value !== undefined) request.address = { ...request.address, [part]: value };
  }
  request.phone = take("--phone", options.phone, parsePhone);
  request.email = take("--email", options.email, parseEmail);
  request.location = take("--location", options.location, parseLocationName);
  request.register = take("--register", options.register, parseRegisterName);
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return request;
}

/** Whether any setting was given as an option (then nothing is asked). */
function anySettingGiven(options: SetupOptions): boolean {
  return Object.entries(options).some(([key, value]) =>
    key !== "json" && key !== "format" && value !== undefined
  );
}

function changeText(change: Change): string {
  return `${change.what}: ${change.from ?? "none"} → ${change.to}`;
}

async function setUp(
  shop: SetupShop,
  given: SetupRequest,
  interactive: boolean,
) {
  const state = await shop.read(given.location);
  let request = given;
  if (interactive) request = await askSetup(state, (id) => shop.registersAt(id));
  else if (needsFirstSetup(state)) {
    const missing = missingForFirstSetup(request);
    if (missing.length > 0) throw new UsageError(missing.join("\n"));
  }
  return await applySetup(shop, state, request);
}

export function registerSetup(program: Command): void {
  const setup = withFormatOptions(
    program.command("setup")
      .description(
        "Set the shop up (first run; safe to repeat): store name, address, time zone, " +
          "currency, tax rates, the first location and its register. Asks on a terminal when " +
          "no option is given; with options, changes only what they name (a first setup " +
          "names --store-name, --timezone, --currency, --tax-rate, --location and --register)",
      )
      .option("--store-name <name>", "the store's name (receipts, claim tags, agreements)")
      .option("--timezone <zone>", "IANA time zone, e.g. America/Chicago")
      .option("--currency <code>", "ISO 4217 currency code, e.g. USD")
      .option(
        "--tax-rate <rate>",
        "tax in percent: RATE for goods and services, or goods=RATE / service=RATE (repeatable)",
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option("--address-line1 <text>", "street address")
      .option("--address-line2 <text>", "address line 2 (- for none)")
      .option("--city <city>", "city")
      .option("--state <state>", "state or region")
      .option("--postal-code <code>", "postal code")
      .option("--country <country>", "country (- for none)")
      .option("--phone <phone>", "the store's phone (- for none)")
      .option("--email <email>", "the store's email (- for none)")
      .option("--location <name>", "the first location (created, or the only one renamed)")
      .option("--register <name>", "its register (created, or the only one renamed)"),
  ).action(async (options: SetupOptions) => {
    const format = outputFormat(options);
    const given = requestFromOptions(options);
    const interactive = !anySettingGiven(options) && Deno.stdin.isTerminal();
    const result = await run({
      direct: (deps) => setUp(directShop(deps), given, interactive),
      server: (api) => setUp(apiShop(api), given, interactive),
    });
    if (format !== "table") {
      return printRows(
        result.changes,
        [
          { header: "what", value: (c) => c.what },
          { header: "from", value: (c) => c.from },
          { header: "to", value: (c) => c.to },
        ],
        format,
        { json: result },
      );
    }
    for (const change of result.changes) printText(changeText(change));
    printText(
      (result.changes.length === 0 ? "Nothing to change: " : "Set up: ") + result.summary,
    );
  });
  describe(setup, {
    examples: [
      "deno task ops setup                     # on a terminal: asks, with the current values",
      'deno task ops setup --store-name "Harmony Music" --timezone America/Chicago ' +
      '--currency USD --tax-rate 8.25 --location "Main Street" --register Front',
      "deno task ops setup --tax-rate goods=8.25 --tax-rate service=0",
    ],
    env: BUSINESS_ENV,
  });
}
