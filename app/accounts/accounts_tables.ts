/** Table types of accounts, members and their sub-records. */
import type { Generated } from "kysely";
import type { AddressColumn, DateColumn, GeneratedText, Timestamp } from "../db/column_types.ts";

export interface AccountTable {
  id: string;
  account_number: string;
  name: string;
  email: string | null;
  phone: string | null;
  address: AddressColumn;
  primary_member_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
  /** The members' lowered names and emails, kept by `refreshMemberSearch` (in `search`). */
  member_search: Generated<string>;
  search: GeneratedText;
}

export interface MemberTable {
  id: string;
  account_id: string;
  first_name: string;
  last_name: string;
  date_of_birth: DateColumn | null;
  /** The manual flag; only meaningful while `date_of_birth` is null. */
  is_minor: Generated<boolean>;
  email: string | null;
  phone: string | null;
  address: AddressColumn;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The account's name, kept by the use cases that name it (in `search`). */
  account_name: Generated<string>;
  search: GeneratedText;
}

export interface IdTypeTable {
  id: string;
  value: string;
  label: string;
  is_built_in: Generated<boolean>;
  created_at: Timestamp;
}

export interface MemberIdentifierTable {
  id: string;
  member_id: string;
  id_type: string;
  id_number: string;
  issuing_state: string | null;
  issued_date: DateColumn | null;
  expires_date: DateColumn | null;
  front_file_id: string | null;
  back_file_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaymentMethodTable {
  id: string;
  account_id: string;
  type: string;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
  processor: string | null;
  processor_payment_method_id: string | null;
  is_default: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TaxExemptionTable {
  id: string;
  account_id: string;
  certificate_number: string;
  issuing_state: string | null;
  reason: string | null;
  expires_date: DateColumn | null;
  status: Generated<string>;
  approved_at: Timestamp | null;
  approved_by: string | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProcessorLinkTable {
  id: string;
  account_id: string;
  processor: string;
  external_customer_id: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AccountsTables {
  accounts: AccountTable;
  members: MemberTable;
  id_types: IdTypeTable;
  member_identifiers: MemberIdentifierTable;
  payment_methods: PaymentMethodTable;
  tax_exemptions: TaxExemptionTable;
  processor_links: ProcessorLinkTable;
}
