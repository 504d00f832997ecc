import { assertEquals } from "../../tests/_helpers/assert.ts";
import { barModules, labelBarcodeFor } from "./label_barcode.ts";

Deno.test("labelBarcodeFor() prefers a valid UPC, else Code 128 of the SKU", () => {
  assertEquals(labelBarcodeFor({ sku: "S1", upc: " 036000291452 " }), {
    symbology: "upca",
    value: "036000291452",
  });
  assertEquals(labelBarcodeFor({ sku: "S1", upc: "0036000291452" }), {
    symbology: "upca",
    value: "036000291452",
  });
  assertEquals(labelBarcodeFor({ sku: "S1", upc: "4006381333931" })?.symbology, "ean13");
  assertEquals(labelBarcodeFor({ sku: "S1", upc: "96385074" })?.symbology, "ean8");
  assertEquals(labelBarcodeFor({ sku: "GTR-1", upc: "036000291453" }), {
    symbology: "code128",
    value: "GTR-1",
  });
  assertEquals(labelBarcodeFor({ sku: "GTR-1", upc: null })?.value, "GTR-1");
  assertEquals(labelBarcodeFor({ sku: "Saite-ß", upc: null }), null);
});

Deno.test("barModules() lays bars and spaces out between quiet zones", () => {
  assertEquals([...barModules([2, 1, 1], 2)], [0, 0, 1, 1, 0, 1, 0, 0]);
});
