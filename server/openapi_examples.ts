/**
 * Request-body examples for the OpenAPI document, derived from each body's JSON Schema: what a
 * shop would send ("Main Street", "19.99", a date next week), not the schema's type names, so
 * Swagger's "Try it out" starts from a body the route accepts. A route whose rules the schema
 * cannot show (one field or the other, dates in order) gives its own `example`; a test checks
 * every example against its route's schema.
 */
type JsonSchema = Record<string, unknown>;
/** Follows a `$ref` to the named schema (server/openapi_components.ts). */
type Resolve = (schema: JsonSchema) => JsonSchema;

const EXAMPLE_ID = "01936b2e-7c4f-7d2a-9b1e-3f5a6c7d8e9f";

/** Names of the records a path creates, for their `name` field. */
const NAMES_BY_RESOURCE: Record<string, string> = {
  locations: "Main Street",
  registers: "Front counter",
  products: "Student violin outfit 4/4",
  categories: "String instruments",
  suppliers: "Harbor Music Supply",
  roles: "Weekend cashier",
  "lesson-types": "Piano, 30 minutes",
  "grading-scales": "ABRSM grades",
  "id-types": "Driver's licence",
  "item-conditions": "Like new",
  "unit-statuses": "On loan",
  accounts: "Rivera family",
  "repair-batches": "Lincoln High band, spring service",
  "service-templates": "Brass valve overhaul",
  "vault/categories": "Supplier portals",
  "vault/entries": "Harbor Music Supply portal",
  "storage/folders": "Repair manuals",
};

/** Strings by field name (case-insensitive, checked before the generic rules). */
const STRINGS_BY_FIELD: Record<string, string> = {
  email: "sam.rivera@example.com",
  firstname: "Sam",
  lastname: "Rivera",
  first: "Sam",
  last: "Rivera",
  approvedbyname: "Maria Rivera",
  phone: "+1 617 555 0142",
  password: "correct horse battery staple",
  newpassword: "a longer passphrase for 2027",
  currentpassword: "correct horse battery staple",
  masterpassword: "vault passphrase kept offline",
  pin: "4821",
  sku: "VN-44-STU",
  barcode: "0614252151049",
  serialnumber: "SV-2026-0481",
  serial: "SV-2026-0481",
  description: "Set-up included: bridge fitted, strings tuned",
  itemdescription: "Trumpet, sticky third valve",
  notes: "Called the customer; pick-up after 4 pm",
  note: "Approved on the phone",
  reason: "Serial number on the form does not match the instrument",
  content: "Replaced the valve guides; play-tested",
  title: "Grade 2 repertoire",
  url: "https://portal.harbor-music.example",
  username: "orders@shop.example",
  secret: "s3cret-for-the-portal",
  line1: "12 Harbor Street",
  line2: "Suite 4",
  city: "Boston",
  region: "MA",
  state: "MA",
  postalcode: "02110",
  country: "US",
  timezone: "America/New_York",
  currency: "USD",
  color: "#3366CC",
  room: "Studio B",
  token: "the token from the reset link",
  number: "4242",
  label: "Grade 1",
  code: "DL",
  taxid: "04-3456789",
  certificatenumber: "EX-2026-118",
  value: "grade_1",
  permission: "inventory.view",
  upc: "036000291452",
  reference: "Terminal slip 1042",
  billingunit: "lesson",
  brand: "Visa",
  processor: "stripe",
  processorpaymentmethodid: "pm_1QfX2sLkd8Tz",
  processorcustomerid: "cus_R2d8Lk3mQx",
};

/**
 * Optional fields an example leaves out: derived from others it sets (`isMinor`), or fitting
 * only another kind of record than the example's (a sale names no repair ticket).
 */
const LEFT_OUT = new Set(["isMinor", "repairTicketId", "rentalChargeIds"]);
/** Fields of which a body takes one or the other (a grant to a role or to a user): the first
 * (an answer, where both are required, shows both). */
const ONE_OF: ReadonlyArray<readonly [string, string]> = [["roleId", "userId"]];

const MONEY_BY_FIELD: Record<string, string> = {
  openingbalance: "150.00",
  countedcash: "412.50",
  amount: "25.00",
  unitprice: "19.99",
  price: "349.00",
  cost: "182.50",
  rate: "120.00",
  deposit: "50.00",
  estimate: "85.00",
  purchaseprice: "899.00",
  creditlimit: "500.00",
  closingbalance: "412.50",
  tendered: "40.00",
  weekly: "30.00",
  monthly: "110.00",
  quarterly: "300.00",
};

const INTEGERS_BY_FIELD: Record<string, number> = {
  quantity: 1,
  itemcount: 1,
  dayofweek: 2,
  durationminutes: 30,
  estimatedminutes: 90,
  maxstudents: 1,
  sortorder: 1,
  numericscore: 1,
  expmonth: 8,
  expyear: 2029,
};

/** An example for the request body of `path` (the OpenAPI path), or undefined. */
export function exampleForBody(schema: JsonSchema, path: string, resolve: Resolve): unknown {
  return exampleOf(schema, "", { resource: resourceOf(path), resolve });
}

interface Walk {
  resource: string;
  resolve: Resolve;
}

function resourceOf(path: string): string {
  const parts = path.replace(/^\/v1\//, "").split("/").filter((p) => !p.startsWith("{"));
  const two = parts.slice(0, 2).join("/");
  if (NAMES_BY_RESOURCE[two]) return two;
  return parts[parts.length - 1] ?? "";
}

function exampleOf(reference: JsonSchema, field: string, walk: Walk): unknown {
  const { $ref, ...beside } = reference;
  const schema = $ref === undefined ? reference : { ...walk.resolve({ $ref }), ...beside };
  const key = field.toLowerCase();
  if (Array.isArray(schema["examples"]) && schema["examples"].length > 0) {
    return schema["examples"][0];
  }
  if ("const" in schema) return schema["const"];
  if (Array.isArray(schema["enum"])) return schema["enum"][0];
  if ("default" in schema && schema["default"] !== undefined && schema["default"] !== null) {
    return schema["default"];
  }
  const options = (schema["anyOf"] ?? schema["oneOf"]) as JsonSchema[] | undefined;
  if (options) {
    if (isMoney(options)) {
      return MONEY_BY_FIELD[key] ?? (key.includes("percent") ? "10.00" : "19.99");
    }
    const chosen = options.find((o) => o["type"] !== "null") ?? options[0]!;
    return exampleOf(chosen, field, walk);
  }
  if (Array.isArray(schema["allOf"]) && schema["allOf"].length > 0) {
    return exampleOf(schema["allOf"][0] as JsonSchema, field, walk);
  }
  const type = Array.isArray(schema["type"])
    ? (schema["type"] as string[]).find((t) => t !== "null")
    : schema["type"] as string | undefined;
  switch (type) {
    case "object":
      return objectExample(schema, walk);
    case "array": {
      const items = (schema["items"] ?? {}) as JsonSchema;
      const count = Math.max(1, Number(schema["minItems"] ?? 1));
      return Array.from({ length: count }, () => exampleOf(items, singular(key), walk));
    }
    case "string":
      return stringExample(schema, field, walk.resource);
    case "integer":
    case "number":
      return numberExample(schema, key, type === "integer");
    case "boolean":
      return key === "isactive" || key === "ispublic" ? true : false;
    default:
      return undefined;
  }
}

function objectExample(schema: JsonSchema, walk: Walk): Record<string, unknown> {
  const properties = (schema["properties"] ?? {}) as Record<string, JsonSchema>;
  const example: Record<string, unknown> = {};
  const required = new Set((schema["required"] ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    if (LEFT_OUT.has(name) && !required.has(name)) continue;
    const either = ONE_OF.some(([first, second]) => name === second && first in properties);
    if (either && !required.has(name)) continue;
    const value = exampleOf(property, name, walk);
    if (value !== undefined) example[name] = value;
  }
  return example;
}

function isMoney(options: JsonSchema[]): boolean {
  return options.some((o) => o["type"] === "number") &&
    options.some((o) =>
      o["type"] === "string" && String(o["pattern"] ?? "").includes("\\.\\d{1,2}")
    );
}

function stringExample(schema: JsonSchema, field: string, resource: string): string {
  const key = field.toLowerCase();
  const format = schema["format"];
  const digits = /^\^(?:\\d|\[0-9\])\{(\d+)(?:,\d+)?\}\$$/.exec(String(schema["pattern"] ?? ""));
  if (digits) return "00014821".slice(-Number(digits[1])).padStart(Number(digits[1]), "4");
  const pattern = String(schema["pattern"] ?? "");
  // Money: "12.5" or "12.50" in requests (\.\d{1,2}), always "12.50" in answers (\.\d{2}).
  if (/\\\.\\d\{(1,)?2\}/.test(pattern)) return MONEY_BY_FIELD[key] ?? "19.99";
  if (key === "dateofbirth") return "2012-05-14";
  if (
    STRINGS_BY_FIELD[key] && format !== "uuid" && !/^(email|date|date-time)$/.test(String(format))
  ) {
    return fit(STRINGS_BY_FIELD[key]!, schema);
  }
  if (format === "uuid" || /(^id|Id)$/.test(field)) return EXAMPLE_ID;
  if (format === "email" || key.endsWith("email")) return STRINGS_BY_FIELD["email"]!;
  if (format === "date-time" || /At$/.test(field)) return "2026-12-01T15:30:00.000Z";
  if (format === "date" || /(^d|D)ate$/.test(field) || key === "from" || key === "through") {
    return key.startsWith("end") || key === "to" || key.startsWith("due")
      ? "2027-06-30"
      : "2026-12-01";
  }
  if (key === "to") return "2027-06-30";
  if (key.endsWith("time")) return "16:30";
  if (key.includes("percent")) return "10.00";
  if (key === "name") return NAMES_BY_RESOURCE[resource] ?? "Main Street";
  const byField = STRINGS_BY_FIELD[key];
  if (byField !== undefined) return fit(byField, schema);
  return fit("As agreed at the counter", schema);
}

/** Respects the schema's length bounds. */
function fit(value: string, schema: JsonSchema): string {
  const max = Number(schema["maxLength"] ?? Infinity);
  const min = Number(schema["minLength"] ?? 0);
  const cut = value.slice(0, max);
  return cut.length >= min ? cut : cut.padEnd(min, "x");
}

function numberExample(schema: JsonSchema, key: string, integer: boolean): number {
  const min = typeof schema["minimum"] === "number" ? schema["minimum"] : undefined;
  const max = typeof schema["maximum"] === "number" ? schema["maximum"] : undefined;
  let value = INTEGERS_BY_FIELD[key] ?? (integer ? 1 : 1.5);
  if (min !== undefined && value < min) value = min;
  if (max !== undefined && value > max) value = max;
  return value;
}

function singular(key: string): string {
  return key.endsWith("ies") ? `${key.slice(0, -3)}y` : key.replace(/s$/, "");
}
