import fc from "fast-check";
import { assertEquals } from "../../tests/_helpers/assert.ts";
import {
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

Deno.test("parseOverrideCode() splits eight digits into employee number and PIN", () => {
  assertEquals(parseOverrideCode("12345678"), { employeeNumber: "1234", pin: "5678" });
  for (const bad of ["1234567", "123456789", "1234abcd", "", " 12345678"]) {
    assertEquals(parseOverrideCode(bad), null);
  }
});
