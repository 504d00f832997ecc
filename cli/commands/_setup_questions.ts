/**
 * `ops setup` on a terminal: every setting asked in turn, the current value (or a sensible
 * first one) in brackets for Enter to keep; a wrong answer is said and asked again; Ctrl-C
 * stops with exit 130 before anything is saved (cli/_prompt.ts).
 */
import type { AddressJson } from "../../app/db/column_types.ts";
import { ask, say } from "../_prompt.ts";
import {
  type AddressPart,
  choose,
  type NamedRecord,
  needsFirstSetup,
  parseAddressPart,
  parseCurrency,
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

/** The machine's time zone, as a first guess for a new shop (when it is a valid IANA zone). */
function machineTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const parsed = parseTimeZone(zone);
  return "value" in parsed ? parsed.value : undefined;
}

const ADDRESS_QUESTIONS: Array<[AddressPart, string]> = [
  ["line2", "Address line 2 (optional, - for none)"],
  ["city", "City"],
  ["state", "State or region"],
  ["postalCode", "Postal code"],
  ["country", "Country (optional, - for none)"],
];

async function askAddress(current: AddressJson | null): Promise<SetupRequest["address"]> {
  const line1 = await ask("Street address (- for none)", {
    default: current?.line1 ?? "-",
    parse: (raw) => (raw === "-" ? { value: null } : parseAddressPart("line1", raw)),
  });
  if (line1 === null) return current ? null : undefined;
  const address: Partial<Record<AddressPart, string | null>> = { line1 };
  for (const [part, question] of ADDRESS_QUESTIONS) {
    const optional = part === "line2" || part === "country";
    address[part] = await ask(question, {
      default: current?.[part] ?? (optional ? "-" : undefined),
      parse: (raw) => parseAddressPart(part, raw),
    });
  }
  return address;
}

/**
 * Asks every setting of `state`'s shop; `registersAt` lists the registers of the chosen
 * location (for the default and to find the one to keep).
 */
export async function askSetup(
  state: ShopState,
  registersAt: (locationId: string) => Promise<NamedRecord[]>,
): Promise<SetupRequest> {
  const first = needsFirstSetup(state);
  say(
    "Setting up the shop: Enter keeps the value in brackets; nothing is saved before the " +
      "last answer (Ctrl-C stops).\n",
  );
  const storeName = await ask("Store name (on receipts)", {
    default: state.store.name,
    parse: parseStoreName,
  });
  const address = await askAddress(state.store.address);
  const phone = await ask("Phone (optional, - for none)", {
    default: state.store.phone ?? "-",
    parse: parsePhone,
  });
  const email = await ask("Email (optional, - for none)", {
    default: state.store.email ?? "-",
    parse: parseEmail,
  });
  const timezone = await ask("Time zone (IANA, e.g. America/Chicago)", {
    default: (first ? machineTimeZone() : undefined) ?? state.store.timezone,
    parse: parseTimeZone,
  });
  const currency = await ask("Currency (ISO 4217, e.g. USD)", {
    default: state.currency,
    parse: parseCurrency,
  });
  const goods = await ask("Sales tax on goods, percent", {
    default: state.taxRates.goods,
    parse: parseTaxRate,
  });
  const service = await ask("Tax on services (labor, lessons), percent", {
    default: state.taxRates.service,
    parse: parseTaxRate,
  });
  const only = state.locations.length === 1 ? state.locations[0]!.name : undefined;
  const location = await ask("Location (where you sell)", {
    default: only ?? (state.locations.length === 0 ? storeName : undefined),
    parse: (raw) => {
      const name = parseLocationName(raw);
      if (!("value" in name)) return name;
      const chosen = choose(name.value, state.locations, { thing: "location", flag: "Location" });
      return "value" in chosen ? name : chosen;
    },
  });
  const chosen = choose(location, state.locations, { thing: "location", flag: "Location" });
  const existing = "value" in chosen && chosen.value?.kind === "existing"
    ? chosen.value.record
    : undefined;
  const registers = existing ? await registersAt(existing.id) : [];
  const register = await ask(`Register at ${location}`, {
    default: registers.length === 1
      ? registers[0]!.name
      : registers.length === 0
      ? "Register 1"
      : undefined,
    parse: (raw) => {
      const name = parseRegisterName(raw);
      if (!("value" in name)) return name;
      const picked = choose(name.value, registers, { thing: "register", flag: "Register" });
      return "value" in picked ? name : picked;
    },
  });
  return {
    storeName,
    address,
    phone,
    email,
    timezone,
    currency,
    taxRates: { goods, service },
    location,
    register,
  };
}
