/**
 * `ops setup`'s rules, without I/O: what each answer or option may be (checked with the API's
 * own schemas, one clear line per mistake), what a first setup must name, the address a run
 * leaves, and which location or register it works on: found by name (or, when the shop has
 * just one, that one, renamed), never a second one for the same place. The writes are
 * _setup_apply.ts; the questions on a terminal _setup_questions.ts.
 */
import type { z } from "zod";
import type { AddressJson } from "../../app/db/column_types.ts";
import {
  createLocationBody,
  timeZone,
  updateStoreBody,
} from "../../app/platform/platform_schemas.ts";
import { createRegisterBody } from "../../app/pos/pos_schemas.ts";
import { address as addressSchema, percent } from "../../app/schemas.ts";
import { storeSetupGaps } from "../../domain/platform/store_setup.ts";

export type Parsed<T> = { value: T } | { problem: string };

function fromSchema<S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { value: parsed.data } : {
    problem: parsed.error.issues[0]?.message ?? "Not accepted",
  };
}

/** `value` as given, in quotes, for messages. */
function quoted(value: string): string {
  return JSON.stringify(value);
}

export function parseStoreName(raw: string): Parsed<string> {
  return fromSchema(updateStoreBody.shape.name.unwrap(), raw);
}

/** An IANA time zone; its canonical spelling when only the case differs (america/chicago). */
export function parseTimeZone(raw: string): Parsed<string> {
  const value = raw.trim();
  if (!timeZone.safeParse(value).success) {
    return {
      problem: `${quoted(value)} is not an IANA time zone (such as America/Chicago, ` +
        "Europe/Berlin, UTC)",
    };
  }
  const canonical = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions()
    .timeZone;
  return { value: canonical.toLowerCase() === value.toLowerCase() ? canonical : value };
}

/** An ISO 4217 code the runtime knows (any case in, upper case out). */
export function parseCurrency(raw: string): Parsed<string> {
  const value = raw.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(value) || !Intl.supportedValuesOf("currency").includes(value)) {
    return {
      problem: `${quoted(raw.trim())} is not an ISO 4217 currency code (such as USD, EUR, GBP)`,
    };
  }
  return { value };
}

/** A percentage 0..100 with at most two decimals (`8.25`, `8.25%`, `0`), as "8.25". */
export function parseTaxRate(raw: string): Parsed<string> {
  const value = raw.trim().replace(/\s*%$/, "");
  const parsed = percent.safeParse(value);
  if (parsed.success) return { value: parsed.data };
  return {
    problem: `${quoted(raw.trim())} is not a tax rate: give a percentage from 0 to 100 with at ` +
      "most two decimals, such as 8.25",
  };
}

export function parseLocationName(raw: string): Parsed<string> {
  return fromSchema(createLocationBody.shape.name, raw);
}

export function parseRegisterName(raw: string): Parsed<string> {
  return fromSchema(createRegisterBody.shape.name, raw);
}

/** An optional text: "" or "-" is none (null). */
function optional<T>(parse: (raw: string) => Parsed<T>): (raw: string) => Parsed<T | null> {
  return (raw) => (raw.trim() === "" || raw.trim() === "-" ? { value: null } : parse(raw));
}

export const parsePhone = optional((raw) => fromSchema(updateStoreBody.shape.phone, raw));
export const parseEmail = optional((raw) =>
  fromSchema(updateStoreBody.shape.email, raw.trim()) as Parsed<string>
);

/** The parts of a postal address, each checked as the API checks it. */
export type AddressPart = keyof AddressJson;
const ADDRESS_SHAPE = addressSchema.shape;

export function parseAddressPart(part: AddressPart, raw: string): Parsed<string | null> {
  if (part === "line2" || part === "country") {
    return optional((r) => fromSchema(ADDRESS_SHAPE[part], r) as Parsed<string>)(raw);
  }
  return fromSchema(ADDRESS_SHAPE[part], raw);
}

/** What a run asks for (each field checked; undefined: leave as it is). */
export interface SetupRequest {
  storeName?: string;
  timezone?: string;
  currency?: string;
  taxRates?: { goods?: string; service?: string };
  /** Parts to set; a part set to null is removed (line2, country). `null`: no address. */
  address?: Partial<Record<AddressPart, string | null>> | null;
  phone?: string | null;
  email?: string | null;
  location?: string;
  register?: string;
}

export interface NamedRecord {
  id: string;
  name: string;
}

export interface LocationState extends NamedRecord {
  address: AddressJson | null;
}

/** The shop as it is, as far as setup is concerned. */
export interface ShopState {
  store: {
    name: string;
    timezone: string;
    address: AddressJson | null;
    phone: string | null;
    email: string | null;
  };
  currency: string;
  taxRates: { goods: string; service: string };
  /** The shop's locations (the first 100 by name, plus any named like the requested one). */
  locations: LocationState[];
}

/** Whether the shop still needs its first setup (domain/platform/store_setup.ts). */
export function needsFirstSetup(state: ShopState): boolean {
  return storeSetupGaps({
    storeName: state.store.name,
    hasLocation: state.locations.length > 0,
  }).length > 0;
}

/** The options a first setup must name when it is not asked on a terminal. */
export const FIRST_SETUP_OPTIONS: ReadonlyArray<[keyof SetupRequest, string, string]> = [
  ["storeName", "--store-name", "the store's name (receipts show it)"],
  ["timezone", "--timezone", 'its IANA time zone (what "today" is)'],
  ["currency", "--currency", "its currency"],
  ["taxRates", "--tax-rate", "its tax rate(s), 0 included"],
  ["location", "--location", "the location it sells at"],
  ["register", "--register", "that location's register"],
];

/** What a first setup lacks, one line each after one saying why (empty when complete). */
export function missingForFirstSetup(request: SetupRequest): string[] {
  const missing = FIRST_SETUP_OPTIONS.filter(([field]) => request[field] === undefined)
    .map(([, flag, what]) => `${flag} is missing: ${what}`);
  if (missing.length === 0) return [];
  return [
    "The shop is not set up yet, so its first setup names every setting (or run `ops setup` " +
    "on a terminal to be asked):",
    ...missing,
  ];
}

/** The address a request leaves the store with; a problem when a needed part is missing. */
export function resultingAddress(
  current: AddressJson | null,
  wanted: SetupRequest["address"],
): Parsed<AddressJson | null> {
  if (wanted === undefined) return { value: current };
  if (wanted === null) return { value: null };
  const merged: Record<string, string | null | undefined> = { ...(current ?? {}), ...wanted };
  const missing = (["line1", "city", "state", "postalCode"] as const).filter((p) => !merged[p]);
  if (missing.length > 0) {
    const flags = missing.map((p) => ADDRESS_FLAGS[p]).join(", ");
    return { problem: `An address needs ${flags} as well` };
  }
  const clean = Object.fromEntries(
    Object.entries(merged).filter(([, v]) => v !== null && v !== undefined),
  );
  return fromSchema(addressSchema, clean) as Parsed<AddressJson>;
}

export const ADDRESS_FLAGS: Record<AddressPart, string> = {
  line1: "--address-line1",
  line2: "--address-line2",
  city: "--city",
  state: "--state",
  postalCode: "--postal-code",
  country: "--country",
};

export function sameAddress(a: AddressJson | null, b: AddressJson | null): boolean {
  const norm = (x: AddressJson | null) =>
    x &&
    JSON.stringify([x.line1, x.line2 ?? null, x.city, x.state, x.postalCode, x.country ?? null]);
  return norm(a) === norm(b);
}

export function addressText(address: AddressJson | null): string {
  if (!address) return "none";
  return [
    address.line1,
    address.line2,
    address.city,
    address.state,
    address.postalCode,
    address.country,
  ].filter((part) => part).join(", ");
}

/** Which location a run sets up: found by name, the one there is, or a new one. */
export type Choice =
  | { kind: "existing"; record: NamedRecord; rename?: string }
  | { kind: "new"; name: string };

/**
 * The record named `wanted` (case-insensitive, kept as it is spelt), else the only one (renamed
 * to `wanted`), else
 * a new one when there is none; several others and none named so: a problem naming them.
 */
export function choose(
  wanted: string | undefined,
  records: readonly NamedRecord[],
  what: { thing: string; flag: string },
): Parsed<Choice | undefined> {
  if (wanted === undefined) {
    return { value: records.length === 1 ? { kind: "existing", record: records[0]! } : undefined };
  }
  const named = records.filter((r) => r.name.toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return { value: { kind: "existing", record: named[0]! } };
  if (named.length > 1) {
    return { problem: `${what.flag}: several ${what.thing}s are named ${quoted(wanted)}` };
  }
  if (records.length === 0) return { value: { kind: "new", name: wanted } };
  if (records.length === 1) {
    return { value: { kind: "existing", record: records[0]!, rename: wanted } };
  }
  const names = records.slice(0, 10).map((r) => quoted(r.name)).join(", ");
  return {
    problem: `${what.flag} ${quoted(wanted)} is none of the ${records.length} ${what.thing}s ` +
      `(${names}${records.length > 10 ? ", …" : ""}): name one of them (ops setup sets up ` +
      `the first ${what.thing}; add more through the API)`,
  };
}
