/**
 * The supplier catalogue (ProcureLab): approved suppliers' products, prices and lead times, and
 * quotations. Errors are `{errors: [{code, message, field?}]}`.
 */
import { bool, date, int, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const PRODUCT_ID = str("catalogue product identifier, e.g. PRD-SIG-270997");
const QUOTE_ID = str("quotation identifier, e.g. QT-2026-0815");
const INVALID = { errors: [{ code: "VALIDATION_FAILED", message: "{@message}" }] };
const UNKNOWN_PRODUCT = {
  errors: [{ code: "PRODUCT_UNKNOWN", message: "product {product_id} is not in any approved catalogue" }],
};
const UNKNOWN_QUOTE = { errors: [{ code: "QUOTE_UNKNOWN", message: "quotation {quote_id} does not exist" }] };

export const SUPPLIERS: ToolSpec = {
  tool: "suppliers",
  description:
    "Supplier catalogue (ProcureLab): products of the laboratory's approved suppliers with grades and pack sizes, prices in several currencies, stock and lead times, and quotation requests.",
  endpoints: [
    {
      name: "search",
      description:
        "Search approved suppliers' catalogues for products by name, grade, CAS number or catalogue number, optionally only what is in stock.",
      params: {
        query: str("product name, grade, CAS number or catalogue number"),
        category: oneOf(
          ["chemicals", "metals", "polymers", "ceramics", "gases", "consumables", "equipment"],
          "only products of this category",
        ),
        supplier_id: str("only this supplier, e.g. SUP-0042"),
        in_stock: bool("only products the supplier has in stock"),
        page_size: pageSize(50, 20),
        page_token: pageToken(),
      },
      required: ["query"],
      access: "read",
      outputs: [
        out("products", "array", "product_id, name, grade, supplier, catalogue_number, pack_sizes"),
        out("next_page_token", "string", "token of the next page, null on the last"),
      ],
      replies: { empty: { products: [], next_page_token: null }, validation_error: INVALID },
    },
    {
      name: "product",
      description:
        "Get a catalogue product by product id: supplier, catalogue number, grade, purity or specification, pack sizes, storage class and the certificate of analysis it ships with.",
      params: { product_id: PRODUCT_ID },
      required: ["product_id"],
      access: "read",
      outputs: [
        out(
          "product",
          "object",
          "supplier, catalogue_number, grade, specification, pack_sizes, storage_class",
        ),
        out("source_id", "string", "identifier of the catalogue entry"),
      ],
      replies: { not_found: UNKNOWN_PRODUCT, validation_error: INVALID },
    },
    {
      name: "price",
      description:
        "Price of a product for a number of packs: unit and total price in the requested currency, volume discount, the supplier's stock and the lead time in days to the delivery site.",
      params: {
        product_id: PRODUCT_ID,
        quantity: int("number of packs", { minimum: 1 }),
        pack_size: str("pack size as listed, e.g. '500 g' or '2.5 L' (default: the smallest)"),
        currency: oneOf(["EUR", "USD", "GBP", "JPY", "KRW"], "currency of the prices (default EUR)", "EUR"),
        delivery_site: oneOf(["north_campus", "south_campus", "pilot_plant"], "where it is delivered"),
      },
      required: ["product_id", "quantity"],
      access: "read",
      outputs: [
        out("unit_price", "number", "price of one pack in the requested currency"),
        out("total_price", "number", "price of the quantity after discount"),
        out("lead_time_days", "integer", "working days to delivery", "d"),
        out("source_id", "string", "identifier of the price list entry"),
      ],
      replies: { not_found: UNKNOWN_PRODUCT, validation_error: INVALID },
    },
    {
      name: "quote",
      description:
        "Request a formal quotation from the supplier for a product, quantity and need-by date; returns the quotation id in state requested.",
      params: {
        product_id: PRODUCT_ID,
        quantity: int("number of packs", { minimum: 1 }),
        needed_by: date("date the goods are needed on site"),
        project_code: str("project the purchase is charged to"),
      },
      required: ["product_id", "quantity"],
      access: "write",
      outputs: [
        out("quote_id", "string", "identifier of the quotation"),
        out("state", "string", "requested"),
      ],
      replies: {
        success: {
          quote_id: "QT-{@id}",
          product_id: "{product_id}",
          quantity: "{quantity}",
          state: "requested",
        },
        not_found: UNKNOWN_PRODUCT,
        validation_error: INVALID,
      },
    },
    {
      name: "quote_status",
      description:
        "State of a quotation (requested, quoted, accepted, expired, cancelled) with the quoted price, validity date and the supplier's reference once quoted.",
      params: { quote_id: QUOTE_ID },
      required: ["quote_id"],
      access: "read",
      outputs: [
        out("state", "string", "requested, quoted, accepted, expired or cancelled"),
        out("quoted_total", "number", "quoted total price, in the quote's currency"),
        out("valid_until", "string", "last day the quoted price holds"),
        out("source_id", "string", "identifier of the quotation record"),
      ],
      replies: { not_found: UNKNOWN_QUOTE, validation_error: INVALID },
    },
    {
      name: "cancel_quote",
      description:
        "Withdraw a quotation request or an accepted quote: the supplier is notified, the quoted price is released and the quotation cannot be reopened.",
      params: { quote_id: QUOTE_ID, reason: str("reason given to the supplier") },
      required: ["quote_id"],
      access: "destructive",
      outputs: [out("quote_id", "string", "the quotation withdrawn"), out("state", "string", "cancelled")],
      replies: {
        success: { quote_id: "{quote_id}", state: "cancelled" },
        not_found: UNKNOWN_QUOTE,
        validation_error: INVALID,
      },
    },
  ],
};
