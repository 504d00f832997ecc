/**
 * The README's first sale through a typed client: `openapi-fetch` with the types
 * `client/generate.ts` writes from the OpenAPI document (`client/schema.d.ts`). A location, a
 * register, a product, an open drawer, a sale paid in cash and completed, then the day's report.
 *
 *   deno run -A client/generate.ts http://127.0.0.1:8000/v1/openapi.json
 *   TOKEN=… deno run -A client/first_sale.ts http://127.0.0.1:8000
 *
 * tests/client/typed_client_test.ts type-checks this file against the types of the current
 * document and runs it against a server: a change that breaks generated clients fails CI.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.d.ts";

type Schemas = components["schemas"];
export type Transaction = Schemas["Transaction"];
export type DailyReport = Schemas["DailyReport"];
export type Problem = Schemas["Problem"];

export interface FirstSale {
  sale: Transaction;
  report: DailyReport;
}

/** What a failed call answered, as problem+json. */
export class ApiProblem extends Error {
  constructor(readonly status: number, readonly problem: Problem) {
    super(`${status} ${problem.code}: ${problem.detail}`);
  }
}

/** The answer's data, or an `ApiProblem` for an error answer. */
function ok<T>(
  result: { data?: T; error?: unknown; response: Response },
): T {
  if (result.data === undefined) {
    throw new ApiProblem(result.response.status, result.error as Problem);
  }
  return result.data;
}

/** Sells two packs of strings for cash at a new location's new register. */
export async function firstSale(baseUrl: string, token: string): Promise<FirstSale> {
  const api = createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${token}` },
  });
  const location = ok(await api.POST("/v1/locations", { body: { name: "Main Street" } }));
  const register = ok(
    await api.POST("/v1/registers", { body: { name: "Front", locationId: location.id } }),
  );
  const product = ok(
    await api.POST("/v1/products", {
      body: { name: "Guitar strings", sku: "STR-10", price: "9.99" },
    }),
  );
  ok(
    await api.POST("/v1/drawers/open", {
      body: { registerId: register.id, openingBalance: "100.00" },
    }),
  );
  const created: Transaction = ok(
    await api.POST("/v1/transactions", {
      body: {
        locationId: location.id,
        registerId: register.id,
        items: [{ kind: "sale", productId: product.id, quantity: 2 }],
      },
    }),
  );
  const pending = ok(
    await api.GET("/v1/transactions/{id}", { params: { path: { id: created.id } } }),
  );
  ok(
    await api.POST("/v1/transactions/{id}/payments", {
      params: { path: { id: pending.id } },
      body: { method: "cash", amount: pending.balanceDue },
    }),
  );
  const sale = ok(
    await api.POST("/v1/transactions/{id}/complete", {
      params: { path: { id: pending.id } },
      body: { registerId: register.id },
    }),
  );
  const report = ok(
    await api.GET("/v1/reports/daily", { params: { query: { locationId: location.id } } }),
  );
  return { sale, report };
}

if (import.meta.main) {
  const [baseUrl = "http://127.0.0.1:8000"] = Deno.args;
  const token = Deno.env.get("TOKEN");
  if (!token) throw new Error("Set TOKEN to an access token (README: First steps)");
  const { sale, report } = await firstSale(baseUrl, token);
  console.log(JSON.stringify({
    receiptNumber: sale.receiptNumber,
    status: sale.status,
    total: sale.total,
    reportDate: report.date,
  }));
}
