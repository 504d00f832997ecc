/**
 * `ops setup` carried out: everything is checked first (nothing is written while a line is
 * wrong), then only what differs is written, through `SetupShop` (the use cases directly, or
 * the API), and each change is reported as `what: from → to`.
 */
import type { AddressJson } from "../../app/db/column_types.ts";
import { UsageError } from "../_errors.ts";
import {
  addressText,
  type Choice,
  choose,
  type NamedRecord,
  type Parsed,
  resultingAddress,
  sameAddress,
  type SetupRequest,
  type ShopState,
} from "./_setup_plan.ts";

type StoreFields = ShopState["store"];

/** The shop as `ops setup` reads and changes it (filled by the command for either way). */
export interface SetupShop {
  /** The shop; `locationName`: make sure a location of that name is among its locations. */
  read(locationName?: string): Promise<ShopState>;
  registersAt(locationId: string): Promise<NamedRecord[]>;
  updateStore(changes: Partial<StoreFields>): Promise<void>;
  updateConfig(
    patch: { currency?: string; taxRates?: { goods?: string; service?: string } },
  ): Promise<void>;
  createLocation(input: { name: string; address: AddressJson | null }): Promise<NamedRecord>;
  updateLocation(
    id: string,
    changes: { name?: string; address?: AddressJson | null },
  ): Promise<void>;
  createRegister(input: { name: string; locationId: string }): Promise<NamedRecord>;
  renameRegister(id: string, name: string): Promise<void>;
}

/** One change made: `from` null when there was nothing (a new location, a first address). */
export interface Change {
  what: string;
  from: string | null;
  to: string;
}

export interface SetupResult {
  changes: Change[];
  store: StoreFields;
  currency: string;
  taxRates: { goods: string; service: string };
  location: NamedRecord | null;
  register: NamedRecord | null;
  /** The shop as set up, in one line. */
  summary: string;
}

function valueOf<T>(parsed: Parsed<T>, problems: string[]): T | undefined {
  if ("value" in parsed) return parsed.value;
  problems.push(parsed.problem);
  return undefined;
}

function text(value: string | null | undefined): string | null {
  return value === null || value === undefined || value === "" ? null : value;
}

/** Checks `request` against `state`, then writes what differs; the changes and the result. */
export async function applySetup(
  shop: SetupShop,
  state: ShopState,
  request: SetupRequest,
): Promise<SetupResult> {
  const problems: string[] = [];
  const address = valueOf(resultingAddress(state.store.address, request.address), problems);
  const location = valueOf(
    choose(request.location, state.locations, { thing: "location", flag: "--location" }),
    problems,
  );
  if (request.register !== undefined && !location && problems.length === 0) {
    problems.push(
      `--register needs --location: the shop has ${state.locations.length} locations, so name ` +
        "the one the register is at",
    );
  }
  const registers = location?.kind === "existing" ? await shop.registersAt(location.record.id) : [];
  const register = location
    ? valueOf(
      choose(request.register, registers, { thing: "register", flag: "--register" }),
      problems,
    )
    : undefined;
  if (problems.length > 0) throw new UsageError(problems.join("\n"));

  const changes: Change[] = [];
  const store = { ...state.store };
  const storeChanges: Partial<StoreFields> = {};
  const settle = <K extends keyof StoreFields>(
    key: K,
    what: string,
    wanted: StoreFields[K] | undefined,
    show: (v: StoreFields[K]) => string | null = (v) => text(v as string | null),
  ) => {
    if (wanted === undefined || JSON.stringify(wanted) === JSON.stringify(store[key])) return;
    if (key === "address" && sameAddress(wanted as AddressJson, store.address)) return;
    changes.push({ what, from: show(store[key]), to: show(wanted) ?? "none" });
    storeChanges[key] = wanted;
    store[key] = wanted;
  };
  settle("name", "Store name", request.storeName);
  settle("address", "Address", address, (a) => (a ? addressText(a) : null));
  settle("phone", "Phone", request.phone);
  settle("email", "Email", request.email);
  settle("timezone", "Time zone", request.timezone);
  if (Object.keys(storeChanges).length > 0) await shop.updateStore(storeChanges);

  const taxRates = { ...state.taxRates };
  const patch: Parameters<SetupShop["updateConfig"]>[0] = {};
  let currency = state.currency;
  if (request.currency !== undefined && request.currency !== currency) {
    changes.push({ what: "Currency", from: currency, to: request.currency });
    patch.currency = currency = request.currency;
  }
  for (const category of ["goods", "service"] as const) {
    const wanted = request.taxRates?.[category];
    if (wanted === undefined || wanted === taxRates[category]) continue;
    const what = category === "goods" ? "Tax on goods" : "Tax on services";
    changes.push({ what, from: `${taxRates[category]} %`, to: `${wanted} %` });
    patch.taxRates = { ...patch.taxRates, [category]: wanted };
    taxRates[category] = wanted;
  }
  if (Object.keys(patch).length > 0) await shop.updateConfig(patch);

  const where = location
    ? await settleLocation(shop, location, state, store.address, changes)
    : null;
  const till = where && register ? await settleRegister(shop, register, where, changes) : null;
  return {
    changes,
    store,
    currency,
    taxRates,
    location: where,
    register: till,
    summary: `"${store.name}" (${store.timezone}, ${currency}, tax ${taxRates.goods} % on ` +
      `goods and ${taxRates.service} % on services)` +
      (where ? `, location "${where.name}"` : "") + (till ? `, register "${till.name}"` : ""),
  };
}

/**
 * Creates or renames the location. A new one gets the store's address (a first location is
 * usually the store itself); when the store's address changes, a location that had none or
 * the store's old one moves with it.
 */
async function settleLocation(
  shop: SetupShop,
  choice: Choice,
  state: ShopState,
  storeAddress: AddressJson | null,
  changes: Change[],
): Promise<NamedRecord> {
  if (choice.kind === "new") {
    const created = await shop.createLocation({ name: choice.name, address: storeAddress });
    changes.push({ what: "Location", from: null, to: created.name });
    return { id: created.id, name: created.name };
  }
  const current = state.locations.find((l) => l.id === choice.record.id)!;
  const edit: { name?: string; address?: AddressJson | null } = {};
  if (choice.rename) {
    edit.name = choice.rename;
    changes.push({ what: "Location", from: current.name, to: choice.rename });
  }
  const storeMoved = storeAddress !== null && !sameAddress(state.store.address, storeAddress);
  const hadStores = current.address === null || sameAddress(current.address, state.store.address);
  if (storeMoved && hadStores) {
    edit.address = storeAddress;
    changes.push({
      what: `Address of location "${choice.rename ?? current.name}"`,
      from: current.address ? addressText(current.address) : null,
      to: addressText(storeAddress),
    });
  }
  if (Object.keys(edit).length > 0) await shop.updateLocation(current.id, edit);
  return { id: current.id, name: choice.rename ?? current.name };
}

async function settleRegister(
  shop: SetupShop,
  choice: Choice,
  location: NamedRecord,
  changes: Change[],
): Promise<NamedRecord> {
  if (choice.kind === "new") {
    const created = await shop.createRegister({ name: choice.name, locationId: location.id });
    changes.push({ what: `Register at "${location.name}"`, from: null, to: created.name });
    return { id: created.id, name: created.name };
  }
  if (choice.rename) {
    await shop.renameRegister(choice.record.id, choice.rename);
    changes.push({
      what: `Register at "${location.name}"`,
      from: choice.record.name,
      to: choice.rename,
    });
  }
  return { id: choice.record.id, name: choice.rename ?? choice.record.name };
}
