/**
 * Manager override decisions (API §4 `managerOverride`, §8 "Manager override"): when the
 * config requires an override for an action and the acting user lacks `pos.override`, the
 * request must carry `override: { code }` = the 8-digit employeeNumber + PIN of another user
 * holding `pos.override` (checked by the use case: it needs the database). A user holding
 * `pos.override` acts without one.
 *
 * Discounts need an override only when they are large: their share of the pre-discount
 * subtotal strictly exceeds `discountApprovalThresholdPercent` (see
 * `needsDiscountOverride` in `transaction_totals.ts`). A product line priced below the
 * product's price is a discount too, counted per line and with the order discount, and
 * their share is judged again whenever the subtotal changes and at completion
 * (`price_reductions.ts`).
 */
import { PIN_CODE_PATTERN, splitPinCode } from "../auth/pin.ts";

export type OverrideAction = "void" | "refund" | "discount" | "cashInOut";

/** `managerOverride` of the runtime config: which actions need a manager's approval. */
export interface ManagerOverrideConfig {
  void: boolean;
  refund: boolean;
  discount: boolean;
  cashInOut: boolean;
}

/**
 * Whether the request must carry a manager's override code: the config asks for it for
 * `action` and the actor does not hold `pos.override` themselves. For discounts this is the
 * config side only; `needsDiscountOverride` (transaction_totals.ts) adds the threshold.
 */
export function overrideRequired(
  action: OverrideAction,
  config: ManagerOverrideConfig,
  actorHasPosOverride: boolean,
): boolean {
  return config[action] === true && !actorHasPosOverride;
}

/**
 * Splits an override code into employee number and PIN (4 + 4 digits); null when it is not
 * exactly 8 digits. Looking up and verifying the approver is the use case's job; a malformed
 * code is answered like a wrong one (403 `manager_override_required`).
 */
export function parseOverrideCode(code: string): { employeeNumber: string; pin: string } | null {
  return typeof code === "string" && PIN_CODE_PATTERN.test(code) ? splitPinCode(code) : null;
}
