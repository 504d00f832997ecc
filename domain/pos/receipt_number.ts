/** The human number of a transaction (API §17): its sequence number as `S-0001234`. */
export function formatReceiptNumber(n: number): string {
  return `S-${String(n).padStart(7, "0")}`;
}
