// deno-lint-ignore-file no-explicit-any
/**
 * A shop filled through the real server's API (every feature: accounts and members, users,
 * inventory with stock, sales with payments and a refund, lessons, files, repairs, rentals,
 * the storage hub, vault entries), sales fired in parallel as write load, and the checks the
 * round trips share: an archive's tables as rows, its consistency, the restored files.
 */
import { PDF, PNG } from "../files/_fixtures.ts";
import { readArchive } from "../../app/backup/archive_stream.ts";
import { parseManifest } from "../../domain/backup/archive_format.ts";
import { concatBytes } from "../../domain/bytes.ts";
import { assert, assertEquals } from "../_helpers/assert.ts";

export const ADMIN_EMAIL = "admin@example.test";
/** Each call gives up after this long: a test never waits forever. */
const CALL_TIMEOUT_MS = 20_000;

export class Shop {
  constructor(readonly url: string, readonly headers: Record<string, string>) {}

  async call(method: string, path: string, body?: unknown, expected?: number): Promise<any> {
    const isForm = body instanceof FormData;
    const response = await fetch(`${this.url}/v1${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    const want = expected ?? (method === "POST" ? 201 : 200);
    assertEquals(response.status, want, `${method} ${path}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
}

function upload(content: Uint8Array, fields: Record<string, string>, name: string): FormData {
  const data = new FormData();
  data.set("file", new Blob([content as BlobPart]), name);
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

export interface FilledShop {
  locationId: string;
  registerId: string;
  /** The product the write load sells (plenty in stock). */
  loadProductId: string;
}

/** Fills the shop through the API; every feature gets rows. */
export async function fillShop(shop: Shop): Promise<FilledShop> {
  const location = await shop.call("POST", "/locations", { name: "Main Street" });
  const register = await shop.call("POST", "/registers", {
    name: "Front",
    locationId: location.id,
  });
  const supplier = await shop.call("POST", "/suppliers", { name: "Strings Inc." });
  const products = [];
  for (let i = 0; i < 3; i++) {
    const product = await shop.call("POST", "/products", {
      name: `Guitar strings ${i} "light"\ttab\\slash`,
      sku: `STR-${i}`,
      price: `${9 + i}.99`,
    });
    await shop.call("POST", "/stock-receipts", {
      productId: product.id,
      supplierId: supplier.id,
      quantity: 10_000,
      costPerUnit: "3.10",
    });
    products.push(product);
  }
  await shop.call("POST", "/drawers/open", { registerId: register.id, openingBalance: "100.00" });
  const account = await shop.call("POST", "/accounts", {
    name: "Grace Hopper",
    email: "grace@example.com",
    primaryContact: { firstName: "Grace", lastName: "Hopper\nNewline" },
  });
  await shop.call("POST", "/users", {
    email: "sam@example.test",
    firstName: "Sam",
    lastName: "Clerk",
  }).catch(() => {}); // The shape of user creation is not what this test is about.

  // Sales, one refunded.
  for (let i = 0; i < 3; i++) {
    const sale = await sell(shop, location.id, register.id, products[i]!.id, 2, account.id);
    if (i === 0) {
      await shop.call("POST", `/transactions/${sale.id}/refunds`, {
        items: [{ itemId: sale.items[0].id, quantity: 1 }],
        method: "cash",
        reason: "Damaged",
      });
    }
  }

  // Lessons.
  const type = await shop.call("POST", "/lesson-types", {
    name: "Guitar",
    durationMinutes: 30,
    ratePresets: { monthly: "90.00" },
  });
  const teacher = await shop.call("POST", "/instructors", {
    firstName: "Ada",
    lastName: "Teacher",
    email: "teacher@example.test",
    isActive: true,
  });
  const slot = await shop.call("POST", "/schedule-slots", {
    instructorId: teacher.id,
    lessonTypeId: type.id,
    locationId: location.id,
    dayOfWeek: 2,
    startTime: "16:00",
    durationMinutes: 30,
    maxStudents: 2,
    isActive: true,
  });
  await shop.call("POST", "/enrollments", {
    memberId: account.primaryMemberId,
    slotId: slot.id,
    startDate: "2026-12-01",
    billingInterval: "monthly",
  });

  // Files on a member, and the storage hub.
  await shop.call(
    "POST",
    "/files",
    upload(PNG, { entityType: "member", entityId: account.primaryMemberId }, "photo.png"),
  );
  const folder = await shop.call("POST", "/storage/folders", { name: "Repair manuals" });
  await shop.call("POST", `/storage/folders/${folder.id}/files`, upload(PDF, {}, "manual.pdf"));

  // A repair, a rental.
  await shop.call("POST", "/repair-tickets", {
    accountId: account.id,
    itemDescription: "Violin 4/4",
    serialNumber: "VN-2231",
    estimate: "80.00",
  });
  const trumpet = await shop.call("POST", "/products", {
    name: "Student trumpet",
    sku: "TR-200",
    price: "600.00",
    type: "rental",
  });
  const unit = await shop.call("POST", `/products/${trumpet.id}/units`, { serialNumber: "TR-1" });
  await shop.call("POST", "/rentals", {
    accountId: account.id,
    productId: trumpet.id,
    unitId: unit.id,
    startDate: "2026-11-01",
    billingInterval: "monthly",
    rate: "40.00",
  });

  // The vault: entries are stored as ciphertext.
  await shop.call("POST", "/vault/initialize", { masterPassword: "a long master password" });
  const category = await shop.call("POST", "/vault/categories", { name: "Suppliers" });
  await shop.call("POST", "/vault/entries", {
    categoryId: category.id,
    name: "Strings Inc. portal",
    username: "shop",
    secret: "hunter2hunter2",
  });
  return { locationId: location.id, registerId: register.id, loadProductId: products[2]!.id };
}

/** A cash sale of `quantity`, paid and completed. */
export async function sell(
  shop: Shop,
  locationId: string,
  registerId: string,
  productId: string,
  quantity: number,
  accountId?: string,
): Promise<any> {
  const sale = await shop.call("POST", "/transactions", {
    locationId,
    registerId,
    ...(accountId ? { accountId } : {}),
    items: [{ kind: "sale", productId, quantity }, { kind: "sale", productId, quantity: 1 }],
  });
  await shop.call("POST", `/transactions/${sale.id}/payments`, {
    method: "cash",
    amount: sale.balanceDue,
  });
  await shop.call("POST", `/transactions/${sale.id}/complete`, { registerId }, 200);
  return sale;
}

/** `workers` loops of sales until `stop` resolves; the number of sales made. */
export async function writeLoad(
  shop: Shop,
  filled: FilledShop,
  workers: number,
  stop: Promise<unknown>,
): Promise<number> {
  let stopped = false;
  stop.finally(() => (stopped = true)).catch(() => {});
  let made = 0;
  await Promise.all(Array.from({ length: workers }, async () => {
    while (!stopped) {
      await sell(shop, filled.locationId, filled.registerId, filled.loadProductId, 1);
      made++;
    }
  }));
  return made;
}

export interface ArchiveContents {
  migrations: string[];
  /** table → its rows (COPY text lines), sorted. */
  tables: Map<string, string[]>;
  columns: Map<string, string[]>;
  files: Map<string, Uint8Array>;
}

/** Everything an archive holds (checked as `ops restore` checks it). */
export async function readContents(path: string): Promise<ArchiveContents> {
  const text = new Map<string, string[]>();
  const files = new Map<string, Uint8Array[]>();
  const decoder = new TextDecoder();
  const manifest = parseManifest(
    await readArchive((await Deno.open(path)).readable, {
      data(header, bytes) {
        if (header.kind === "table") {
          const parts = text.get(header.name) ?? [];
          parts.push(decoder.decode(bytes, { stream: true }));
          text.set(header.name, parts);
        } else {
          const parts = files.get(header.name) ?? [];
          parts.push(bytes.slice());
          files.set(header.name, parts);
        }
      },
    }),
  );
  const tables = new Map<string, string[]>();
  for (const table of manifest.tables) {
    const rows = (text.get(table.name) ?? []).join("").split("\n").filter((l) => l !== "");
    assertEquals(rows.length, table.rows, `rows of ${table.name}`);
    tables.set(table.name, rows.sort());
  }
  return {
    migrations: manifest.migrations,
    tables,
    columns: new Map(manifest.tables.map((t) => [t.name, t.columns])),
    files: new Map([...files].map(([name, parts]) => [name, concatBytes(parts)])),
  };
}

/** A column of a table's COPY rows, by name. */
export function column(contents: ArchiveContents, table: string, name: string): string[] {
  const index = contents.columns.get(table)!.indexOf(name);
  assert(index >= 0, `${table}.${name}`);
  return contents.tables.get(table)!.map((row) => row.split("\t")[index]!);
}

/**
 * The archive is one snapshot: every transaction line belongs to a transaction in it, every
 * completed sale has its lines, and the stock sold equals the stock gone.
 */
export function assertConsistent(contents: ArchiveContents, filled: FilledShop): void {
  const transactionIds = new Set(column(contents, "transactions", "id"));
  const itemTransactions = column(contents, "transaction_items", "transaction_id");
  for (const id of itemTransactions) assert(transactionIds.has(id), `lines of ${id} without it`);
  const withItems = new Set(itemTransactions);
  const types = column(contents, "transactions", "type");
  const statuses = column(contents, "transactions", "status");
  const ids = column(contents, "transactions", "id");
  ids.forEach((id, i) => {
    if (types[i] === "sale" && statuses[i] === "complete") assert(withItems.has(id), id);
  });
  // Stock of the load product: received − sold (complete sales' lines) == on hand.
  const productIds = column(contents, "products", "id");
  const onHand = Number(
    column(contents, "products", "qty_on_hand")[productIds.indexOf(filled.loadProductId)],
  );
  const itemProducts = column(contents, "transaction_items", "product_id");
  const quantities = column(contents, "transaction_items", "quantity");
  const status = new Map(ids.map((id, i) => [id, `${types[i]}:${statuses[i]}`]));
  let sold = 0;
  itemProducts.forEach((p, i) => {
    if (p !== filled.loadProductId) return;
    if (status.get(itemTransactions[i]!) === "sale:complete") sold += Number(quantities[i]);
  });
  assertEquals(onHand, 10_000 - sold, "stock on hand = received − sold");
}
