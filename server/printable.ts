/**
 * The printed forms (API §17): the POS receipt, the repair claim tag and the rental agreement
 * answer one URL in three forms chosen by `Accept`: JSON (the default), a 40-column
 * `text/plain` and a printable `text/html` page (`?paper=roll|a4`). One negotiation, one way
 * to answer and one piece of documentation for the three routes.
 */
import type { Context } from "hono";
import { z } from "zod";
import { PAPER_SIZES, type PaperSize } from "../domain/printing/html_page.ts";
import { preferredMediaType } from "./negotiation.ts";
import type { ResponseSpec } from "./route.ts";

export type PrintForm = "json" | "text" | "html";

const MEDIA_TYPES = {
  json: "application/json",
  text: "text/plain",
  html: "text/html",
} as const satisfies Record<PrintForm, string>;

/**
 * The form an `Accept` header asks for: the highest quality among JSON, text/plain and
 * text/html (ties: JSON, then HTML, then text). No header, a wildcard, or nothing acceptable → JSON.
 */
export function preferredPrintForm(accept: string | undefined | null): PrintForm {
  const chosen = preferredMediaType(accept, [
    MEDIA_TYPES.json,
    MEDIA_TYPES.html,
    MEDIA_TYPES.text,
  ]);
  return chosen === MEDIA_TYPES.html ? "html" : chosen === MEDIA_TYPES.text ? "text" : "json";
}

/** The query of a printed form: the paper its HTML page is laid out for. */
export const printQuery = z.strictObject({
  paper: z.enum(PAPER_SIZES).optional().describe(
    "Paper of the `text/html` page: `roll` (80 mm receipt roll, default) or `a4`",
  ),
});

/** The page of an HTML form: self-contained, so nothing but its inline style may load. */
const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
};

export interface PrintedForms {
  json: () => unknown;
  text: () => string;
  html: (paper: PaperSize) => string;
}

/**
 * A printed form's page opened from a signed URL (the URL is a credential): the HTML form's
 * headers, and neither kept by caches nor named in a Referer.
 */
export function signedPageResponse(c: Context, html: string): Response {
  return c.body(html, 200, {
    ...HTML_HEADERS,
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
  });
}

/** Answers the form the request's `Accept` asks for (`Vary: Accept`, so caches keep them apart). */
export function printedResponse(
  c: Context,
  forms: PrintedForms,
  paper: PaperSize = "roll",
): Response {
  c.header("Vary", "Accept");
  switch (preferredPrintForm(c.req.header("Accept"))) {
    case "text":
      return c.body(forms.text(), 200, { "Content-Type": "text/plain; charset=utf-8" });
    case "html":
      return c.body(forms.html(paper), 200, HTML_HEADERS);
    default:
      return c.json(forms.json() as Record<string, unknown>);
  }
}

/** How the three forms are chosen, for a printed route's description. */
export const PRINTED_FORMS_NOTE = "Content negotiation by `Accept`: JSON by default (also for " +
  "`*/*` or no header); `text/plain` gives a printable text of at most 40 columns per line (a " +
  "receipt printer's roll); `text/html` a self-contained printable page (every value " +
  "HTML-escaped, no script) whose print stylesheet sizes it for an 80 mm roll, or for A4 with " +
  "`?paper=a4`. With several types the highest `q` wins; on a tie JSON, then HTML, then text. " +
  "The three forms carry the same figures.";

/** The 200 answer of a printed route: the JSON schema, and the text and HTML alternatives. */
export function printedResponses(
  description: string,
  schema: z.ZodType,
): Record<200, ResponseSpec> {
  return {
    200: {
      description,
      schema,
      alternatives: {
        "text/plain": "The printable text: at most 40 columns per line, lines ending in \\n",
        "text/html": "The printable HTML page (80 mm roll, or A4 with `?paper=a4`)",
      },
      headers: ["Vary"],
    },
  };
}
