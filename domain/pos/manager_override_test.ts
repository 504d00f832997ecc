import fc from "fast-check";
import { assertEquals } from "../../tests/_helpers/assert.ts";
import {
  discountOverrideRequired,
  type ManagerOverrideConfig,
  type OverrideAction,
  overrideRequired,
  parseOverrideCode,
} from "./manager_override.ts";

const ALL_ON: ManagerOverrideConfig = { void: true, refund: true, discount: true, cashInOut: true };
const ALL_OFF: ManagerOverrideConfig = {
  void: false,
  refund: false,
  discount: false,
  cashInOut: false,
};
const ACTIONS: OverrideAction[] = ["void", "refund", "discount", "cashInOut"];

Deno.test("overrideRequired() asks for a code only when configured and the actor lacks pos.override", () => {
  for (const action of ACTIONS) {
    assertEquals(overrideRequired(action, ALL_ON, false), true);
    assertEquals(overrideRequired(action, ALL_ON, true), false);
    assertEquals(overrideRequired(action, ALL_OFF, false), false);
    assertEquals(overrideRequired(action, ALL_OFF, true), false);
  }
});

Deno.test("overrideRequired() reads each action's own flag", () => {
  fc.assert(
    fc.property(
      fc.record({
        void: fc.boolean(),
        refund: fc.boolean(),
        discount: fc.boolean(),
        cashInOut: fc.boolean(),
      }),
      fc.constantFrom(...ACTIONS),
      fc.boolean(),
      (config, action, hasOverride) => {
        assertEquals(overrideRequired(action, config, hasOverride), config[action] && !hasOverride);
      },
    ),
  );
});

Deno.test("discountOverrideRequired() also needs the discount to exceed the threshold", () => {
  const tenPercent = 1000;
  const small = { kind: "percent" as const, value: 1000 };
  const large = { kind: "percent" as const, value: 1500 };
  assertEquals(discountOverrideRequired(small, 10_000, tenPercent, ALL_ON, false), false);
  assertEquals(discountOverrideRequired(large, 10_000, tenPercent, ALL_ON, false), true);
  assertEquals(discountOverrideRequired(large, 10_000, tenPercent, ALL_ON, true), false);
  assertEquals(discountOverrideRequired(large, 10_000, tenPercent, ALL_OFF, false), false);
  const amount = { kind: "amount" as const, value: 2000 }; // 20 % of 100.00
  assertEquals(discountOverrideRequired(amount, 10_000, tenPercent, ALL_ON, false), true);
  assertEquals(discountOverrideRequired(amount, 10_000, 2000, ALL_ON, false), false);
});

Deno.test("parseOverrideCode() splits eight digits into employee number and PIN", () => {
  assertEquals(parseOverrideCode("12345678"), { employeeNumber: "1234", pin: "5678" });
  for (const bad of ["1234567", "123456789", "1234abcd", "", " 12345678"]) {
    assertEquals(parseOverrideCode(bad), null);
  }
});
