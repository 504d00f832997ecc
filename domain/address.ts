/** A postal address, as stored (a `jsonb` column) and as printed on receipts. */
export interface PostalAddress {
  line1: string;
  line2?: string | null;
  city: string;
  state: string;
  postalCode: string;
  country?: string | null;
}
