/** The wire shape of a product–supplier link: the link with its supplier's contact details. */
import type { ProductSupplierRecord } from "./product_suppliers_repo.ts";

export function productSupplierJson(link: ProductSupplierRecord) {
  return {
    id: link.id,
    productId: link.productId,
    supplierId: link.supplierId,
    supplierSku: link.supplierSku,
    cost: link.cost,
    isPreferred: link.isPreferred,
    supplier: {
      id: link.supplierId,
      name: link.supplierName,
      contactName: link.supplierContactName,
      email: link.supplierEmail,
      phone: link.supplierPhone,
      accountNumber: link.supplierAccountNumber,
      paymentTerms: link.supplierPaymentTerms,
    },
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
  };
}
