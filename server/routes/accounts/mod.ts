/**
 * Accounts, members and their sub-records (API §5), one file per aggregate. Routers:
 * /accounts, /members, /identifiers, /payment-methods, /tax-exemptions, /processor-links,
 * /lookups/id-types. A sub-record is listed and added under its parent (`/accounts/:id/…`,
 * `/members/:id/identifiers`: the parent's router, extended by the sub-record's file) and
 * changed under its own path.
 *
 * Sub-record lists (identifiers, payment methods, tax exemptions, processor links) follow
 * the list contract of API §1.3 (paginated `{ data, pagination }`), like every other list.
 */
import { accountRoutes } from "./accounts.ts";
import { memberRoutes } from "./members.ts";
import { identifierRoutes } from "./identifiers.ts";
import { paymentMethodRoutes } from "./payment_methods.ts";
import { taxExemptionRoutes } from "./tax_exemptions.ts";
import { processorLinkRoutes } from "./processor_links.ts";
import { idTypeRoutes } from "./id_types.ts";

export const ACCOUNT_ROUTERS = [
  accountRoutes,
  memberRoutes,
  identifierRoutes,
  paymentMethodRoutes,
  taxExemptionRoutes,
  processorLinkRoutes,
  idTypeRoutes,
] as const;
