/**
 * Every migration, in order. Names are frozen in time (`YYYYMMDD_HHMMSS_verb_noun`); a new
 * migration is appended here and never edited once it has landed.
 */
import type { Migration } from "kysely/migration";
import * as createPlatform from "./20261121_090000_create_platform.ts";
import * as createIdentity from "./20261121_100000_create_identity.ts";
import * as createEmailAudit from "./20261121_100100_create_email_audit.ts";
import * as createAccounts from "./20261121_110000_create_accounts.ts";
import * as createFiles from "./20261121_110100_create_files.ts";
import * as createInventory from "./20261121_120000_create_inventory.ts";
import * as createLessons from "./20261121_130000_create_lessons.ts";
import * as createPos from "./20261121_140000_create_pos.ts";
import * as addAuditSearchIndex from "./20261121_150000_add_audit_search_index.ts";
import * as createRepairs from "./20261125_100000_create_repairs.ts";
import * as createVault from "./20261125_110000_create_vault.ts";
import * as createStorageHub from "./20261125_120000_create_storage_hub.ts";
import * as createRentals from "./20261125_130000_create_rentals.ts";
import * as addScanIndexes from "./20261127_100000_add_scan_indexes.ts";
import * as createBackupRuns from "./20261127_220000_create_backup_runs.ts";
import * as addListIndexes from "./20261128_100000_add_list_indexes.ts";
import * as createServerProcesses from "./20261128_200000_create_server_processes.ts";
import * as addSerialStatistics from "./20261129_100000_add_serial_statistics.ts";
import * as addRentalUnpaidSince from "./20261130_100000_add_rental_unpaid_since.ts";
import * as receiptFilterSortIndexes from "./20261130_110000_receipt_filter_sort_indexes.ts";
import * as lowerProductSearchText from "./20261201_100000_lower_product_search_text.ts";
import * as accountMemberSearch from "./20261202_100000_account_member_search.ts";
import * as rentalEnrollmentNameSearch from "./20261203_100000_rental_enrollment_name_search.ts";
import * as addRentalChargeBuyout from "./20261204_100000_add_rental_charge_buyout.ts";
import * as widenDrawerSessionFigures from "./20261204_101000_widen_drawer_session_figures.ts";
import * as keyPinFailuresByUser from "./20261204_103000_key_pin_failures_by_user.ts";
import * as addTransactionDiscountApproval from "./20261204_110000_add_transaction_discount_approval.ts";
import * as addStorageAccessGeneration from "./20261204_120000_add_storage_access_generation.ts";
import * as addRepairLineStock from "./20261204_130000_add_repair_line_stock.ts";
import * as addServerProcessStatus from "./20261205_100000_add_server_process_status.ts";
import * as addTransactionExemptionCertificate from "./20261205_130000_add_transaction_exemption_certificate.ts";
import * as addPendingVoidIndex from "./20261205_140000_add_pending_void_index.ts";

export const migrations: Record<string, Migration> = {
  "20261121_090000_create_platform": createPlatform,
  "20261121_100000_create_identity": createIdentity,
  "20261121_100100_create_email_audit": createEmailAudit,
  "20261121_110000_create_accounts": createAccounts,
  "20261121_110100_create_files": createFiles,
  "20261121_120000_create_inventory": createInventory,
  "20261121_130000_create_lessons": createLessons,
  "20261121_140000_create_pos": createPos,
  "20261121_150000_add_audit_search_index": addAuditSearchIndex,
  "20261125_100000_create_repairs": createRepairs,
  "20261125_110000_create_vault": createVault,
  "20261125_120000_create_storage_hub": createStorageHub,
  "20261125_130000_create_rentals": createRentals,
  "20261127_100000_add_scan_indexes": addScanIndexes,
  "20261127_220000_create_backup_runs": createBackupRuns,
  "20261128_100000_add_list_indexes": addListIndexes,
  "20261128_200000_create_server_processes": createServerProcesses,
  "20261129_100000_add_serial_statistics": addSerialStatistics,
  "20261130_100000_add_rental_unpaid_since": addRentalUnpaidSince,
  "20261130_110000_receipt_filter_sort_indexes": receiptFilterSortIndexes,
  "20261201_100000_lower_product_search_text": lowerProductSearchText,
  "20261202_100000_account_member_search": accountMemberSearch,
  "20261203_100000_rental_enrollment_name_search": rentalEnrollmentNameSearch,
  "20261204_100000_add_rental_charge_buyout": addRentalChargeBuyout,
  "20261204_101000_widen_drawer_session_figures": widenDrawerSessionFigures,
  "20261204_103000_key_pin_failures_by_user": keyPinFailuresByUser,
  "20261204_110000_add_transaction_discount_approval": addTransactionDiscountApproval,
  "20261204_120000_add_storage_access_generation": addStorageAccessGeneration,
  "20261204_130000_add_repair_line_stock": addRepairLineStock,
  "20261205_100000_add_server_process_status": addServerProcessStatus,
  "20261205_130000_add_transaction_exemption_certificate": addTransactionExemptionCertificate,
  "20261205_140000_add_pending_void_index": addPendingVoidIndex,
};
