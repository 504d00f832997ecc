/**
 * Totals, discounts, tax and payments of a point-of-sale transaction (API §8), all in integer
 * cents (see `../money.ts` for the rounding rule).
 *
 * How a transaction is totalled (`computeTotals`):
 * 1. `gross` of a line = quantity × unit price.
 * 2. Consumable lines (internal job costing on repairs) are *not customer-facing*: they get no
 *    discount and no tax and are left out of every customer total and receipt.
 * 3. `subtotal` = Σ gross of the customer-facing lines (before discount, before tax).
 * 4. The order discount: `percent` → `percentOf(subtotal, bp)`; `amount` → the amount. Either
 *    is capped at the subtotal (an amount discount left over after lines were removed never
 *    makes a total negative). It is spread over the customer-facing lines in proportion to
 *    their gross with `allocate()` (largest remainder), so line discounts sum exactly to
 *    `discountTotal` and no line's discount exceeds its gross.
 * 5. `net` of a line = gross − its discount share.
 * 6. Tax is computed per tax category on that category's total net (`percentOf(Σnet, rate)`,
 *    so rounding happens once per category, not once per line) and then spread back over the
 *    category's lines in proportion to their net with `allocate()`. A tax-exempt account pays
 *    no tax (every line 0).
 * 7. `total` = subtotal − discountTotal + taxTotal = Σ (net + tax) over customer-facing lines.
 *
 * Payments: `amountPaid` = Σ payment amounts, `balanceDue` = total − amountPaid.
 */
import { ConflictError, ValidationError } from "../errors.ts";
import {
  allocate,
  assertCents,
  type BasisPoints,
  type Cents,
  exceedsShare,
  formatMoney,
  FULL_PERCENT,
  parseMoney,
  parsePercent,
  percentOf,
  sumCents,
} from "../money.ts";

export type LineKind = "sale" | "labor" | "part";
export type TaxCategory = "goods" | "service";
export const TAX_CATEGORIES: readonly TaxCategory[] = ["goods", "service"];
export type PaymentMethod = "cash" | "card" | "check" | "store_credit" | "other";
export const PAYMENT_METHODS: readonly PaymentMethod[] = [
  "cash",
  "card",
  "check",
  "store_credit",
  "other",
];

/** One line of a transaction as the totals need it. */
export interface TotalsLineInput {
  kind: LineKind;
  /** Positive integer. */
  quantity: number;
  /** Non-negative integer cents. */
  unitPriceCents: Cents;
  taxCategory: TaxCategory;
  /** Consumable product lines are internal only: no discount, no tax, not in customer totals. */
  isConsumable: boolean;
}

/**
 * An order-level discount: `percent` → `value` in basis points (1 000 = 10 %, at most 10 000);
 * `amount` → `value` in cents (≥ 0).
 */
export interface OrderDiscount {
  kind: "percent" | "amount";
  value: number;
}

/** Tax rates per category, in basis points ("8.25" → 825). */
export interface TaxRates {
  goods: BasisPoints;
  service: BasisPoints;
}

export interface TotalsInput {
  lines: readonly TotalsLineInput[];
  discount?: OrderDiscount | null;
  taxRates: TaxRates;
  /** The account has an approved, unexpired tax exemption. */
  taxExempt: boolean;
}

export interface LineTotals {
  /** Quantity × unit price (also for consumable lines, as internal cost). */
  grossCents: Cents;
  /** This line's share of the order discount (0 for consumables). */
  discountCents: Cents;
  /** gross − discount (consumable lines: their gross, as internal cost). */
  netCents: Cents;
  /** This line's share of its category's tax (0 for consumables and tax-exempt accounts). */
  taxCents: Cents;
  /** net + tax. */
  totalCents: Cents;
  /** false for consumable lines: excluded from every customer total and from receipts. */
  customerFacing: boolean;
}

export interface TransactionTotals {
  /** Same order and length as the input lines. */
  lines: LineTotals[];
  /** Σ gross of customer-facing lines (pre-discount, pre-tax). */
  subtotalCents: Cents;
  /** The discount actually applied (capped at the subtotal); a positive magnitude. */
  discountTotalCents: Cents;
  taxTotalCents: Cents;
  /** subtotal − discountTotal + taxTotal. */
  totalCents: Cents;
  /** Σ gross of consumable lines (internal cost, never shown to the customer). */
  internalCostCents: Cents;
}

/** Reads the runtime config's `taxRates` ({ goods: "8.25", service: "0.00" }). */
export function parseTaxRates(rates: { goods: string; service: string }): TaxRates {
  return {
    goods: parsePercent(rates.goods, "taxRates.goods"),
    service: parsePercent(rates.service, "taxRates.service"),
  };
}

/**
 * Reads a discount as it arrives on the wire (`POST /transactions/:id/discount`, value a
 * "10.00" string: a percentage for `percent`, an amount for `amount`) and validates it
 * (percent 0–100, amount ≥ 0); throws ValidationError naming `value`.
 */
export function parseDiscount(input: { kind: "percent" | "amount"; value: string }): OrderDiscount {
  const discount: OrderDiscount = input.kind === "percent"
    ? { kind: "percent", value: parsePercent(input.value, "value") }
    : { kind: "amount", value: parseMoney(input.value, "value") };
  validateDiscount(discount);
  return discount;
}

/** Throws ValidationError unless a percent is 0–10 000 bp or an amount is ≥ 0 cents. */
export function validateDiscount(discount: OrderDiscount): void {
  const { kind, value } = discount;
  if (kind !== "percent" && kind !== "amount") {
    throw new ValidationError([{ path: "kind", message: "Expected percent or amount" }]);
  }
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError([{ path: "value", message: "The discount must not be negative" }]);
  }
  if (kind === "percent" && value > FULL_PERCENT) {
    throw new ValidationError([{ path: "value", message: "A percent discount is at most 100" }]);
  }
}

function validateLine(line: TotalsLineInput, index: number): void {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
    throw new ValidationError([{
      path: `items[${index}].quantity`,
      message: "The quantity must be a positive integer",
    }]);
  }
  if (!Number.isSafeInteger(line.unitPriceCents) || line.unitPriceCents < 0) {
    throw new ValidationError([{
      path: `items[${index}].unitPrice`,
      message: "The unit price must not be negative",
    }]);
  }
  if (line.taxCategory !== "goods" && line.taxCategory !== "service") {
    throw new ValidationError([{
      path: `items[${index}].taxCategory`,
      message: "Expected goods or service",
    }]);
  }
}

/** The default tax category of a line kind (API §8): service for labor, goods otherwise. */
export function defaultTaxCategory(kind: LineKind): TaxCategory {
  return kind === "labor" ? "service" : "goods";
}

/** The discount in cents that `discount` takes off `subtotal` (capped at the subtotal). */
export function discountAmount(discount: OrderDiscount | null | undefined, subtotal: Cents): Cents {
  if (!discount) return 0;
  validateDiscount(discount);
  assertCents(subtotal, "subtotal");
  if (subtotal <= 0) return 0;
  const raw = discount.kind === "percent" ? percentOf(subtotal, discount.value) : discount.value;
  return Math.min(raw, subtotal);
}

/** Computes every line's and the transaction's totals (see the module comment for the rules). */
export function computeTotals(input: TotalsInput): TransactionTotals {
  const { lines, taxRates, taxExempt } = input;
  lines.forEach(validateLine);
  for (const category of TAX_CATEGORIES) {
    assertCents(taxRates[category], `taxRates.${category}`);
    if (taxRates[category] < 0) throw new RangeError(`taxRates.${category} must not be negative`);
  }

  const gross = lines.map((line, i) => {
    const value = line.quantity * line.unitPriceCents;
    if (!Number.isSafeInteger(value)) {
      throw new ValidationError([{
        path: `items[${i}].quantity`,
        message: "Line amount too large",
      }]);
    }
    return value;
  });
  const customerIndexes = lines.flatMap((line, i) => (line.isConsumable ? [] : [i]));
  const subtotal = sumCents(customerIndexes.map((i) => gross[i] as number));
  const discountTotal = discountAmount(input.discount, subtotal);

  const discounts = lines.map(() => 0);
  const shares = allocate(discountTotal, customerIndexes.map((i) => gross[i] as number));
  customerIndexes.forEach((lineIndex, k) => (discounts[lineIndex] = shares[k] as number));
  const nets = lines.map((line, i) =>
    line.isConsumable ? 0 : (gross[i] as number) - (discounts[i] as number)
  );

  const taxes = lines.map(() => 0);
  if (!taxExempt) {
    for (const category of TAX_CATEGORIES) {
      const indexes = customerIndexes.filter((i) => lines[i]?.taxCategory === category);
      const categoryNet = sumCents(indexes.map((i) => nets[i] as number));
      const categoryTax = percentOf(categoryNet, taxRates[category]);
      const parts = allocate(categoryTax, indexes.map((i) => nets[i] as number));
      indexes.forEach((lineIndex, k) => (taxes[lineIndex] = parts[k] as number));
    }
  }

  const lineTotals: LineTotals[] = lines.map((line, i) => {
    const customerFacing = !line.isConsumable;
    const net = customerFacing ? nets[i] as number : gross[i] as number;
    const tax = taxes[i] as number;
    return {
      grossCents: gross[i] as number,
      discountCents: discounts[i] as number,
      netCents: net,
      taxCents: tax,
      totalCents: net + tax,
      customerFacing,
    };
  });
  const taxTotal = sumCents(taxes);
  return {
    lines: lineTotals,
    subtotalCents: subtotal,
    discountTotalCents: discountTotal,
    taxTotalCents: taxTotal,
    totalCents: subtotal - discountTotal + taxTotal,
    internalCostCents: sumCents(
      lines.flatMap((line, i) => (line.isConsumable ? [gross[i] as number] : [])),
    ),
  };
}

/**
 * Whether a discount needs a manager override by size (API §8): its share of the
 * pre-discount subtotal (the percentage itself, or amount ÷ subtotal) strictly exceeds
 * `thresholdBasisPoints` ("10.00" → 1 000). Exactly at the threshold needs none. A positive
 * amount on an empty (zero) subtotal counts as exceeding. Whether the config asks for
 * overrides at all, and whether the actor holds `pos.override`, is `manager_override.ts`.
 */
export function needsDiscountOverride(
  discount: OrderDiscount,
  subtotalCents: Cents,
  thresholdBasisPoints: BasisPoints,
): boolean {
  validateDiscount(discount);
  if (discount.kind === "percent") return discount.value > thresholdBasisPoints;
  return exceedsShare(discount.value, subtotalCents, thresholdBasisPoints);
}

// ---------------------------------------------------------------------------------------
// Payments

export interface PaymentRequest {
  method: PaymentMethod;
  /** The amount to apply to the balance, in cents (> 0). */
  amountCents: Cents;
  /** Cash only: what the customer handed over (≥ amount). Defaults to the amount. */
  tenderedCents?: Cents | null;
}

export interface PreparedPayment {
  method: PaymentMethod;
  amountCents: Cents;
  /** For cash what was handed over; for other methods equal to the amount. */
  tenderedCents: Cents;
  /** Cash: tendered − amount; other methods: 0. */
  changeCents: Cents;
}

/**
 * Validates a payment against the current balance and works out tendered and change
 * (API §8): the amount must be positive (else ValidationError on `amount`); an amount above
 * `balanceDue` → ConflictError `overpayment`; for cash `tendered` (default: the amount) must
 * be ≥ the amount (else ValidationError on `tendered`) and change = tendered − amount; for
 * other methods any `tendered` is ignored, tendered = amount and change 0.
 */
export function preparePayment(request: PaymentRequest, balanceDueCents: Cents): PreparedPayment {
  const { method, amountCents } = request;
  assertCents(balanceDueCents, "balanceDue");
  if (!PAYMENT_METHODS.includes(method)) {
    throw new ValidationError([{ path: "method", message: "Unknown payment method" }]);
  }
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new ValidationError([{ path: "amount", message: "The amount must be positive" }]);
  }
  if (amountCents > balanceDueCents) {
    throw new ConflictError(
      "overpayment",
      `A payment of ${formatMoney(amountCents)} exceeds the balance due of ${
        formatMoney(Math.max(0, balanceDueCents))
      }`,
    );
  }
  if (method !== "cash") {
    return { method, amountCents, tenderedCents: amountCents, changeCents: 0 };
  }
  const tendered = request.tenderedCents ?? amountCents;
  if (!Number.isSafeInteger(tendered) || tendered < amountCents) {
    throw new ValidationError([{
      path: "tendered",
      message: "The cash tendered must be at least the amount",
    }]);
  }
  return { method, amountCents, tenderedCents: tendered, changeCents: tendered - amountCents };
}
