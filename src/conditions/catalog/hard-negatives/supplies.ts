/**
 * Hard negatives of the supplier catalogue and equipment booking: last year's price list, an
 * unvetted marketplace, quotation drafts, a stale calendar feed and waiting lists — each doing
 * something that sounds like the base route and is not what the user asked for.
 */
import { replyStyle } from "../reply-styles.ts";
import { date, instant, int, out, pageSize, str, type ToolSpec } from "../spec.ts";

const PRODUCT_ID = str("catalogue product identifier, e.g. PRD-SIG-270997");

const pricelist = replyStyle("fault");
export const PRICELIST_2024: ToolSpec = {
  tool: "pricelist_2024",
  description: "Supplier price lists of 2024, imported once for the annual budget; never updated since.",
  endpoints: [
    {
      name: "price",
      imitates: "suppliers.price",
      description:
        "Price of a product from the 2024 price list, in the list's own currency, with the lead time printed in the list; prices, discounts and lead times may have changed since.",
      params: { product_id: PRODUCT_ID, quantity: int("number of packs", { minimum: 1 }) },
      required: ["product_id"],
      access: "read",
      outputs: [
        out("list_price", "number", "2024 list price of one pack"),
        out("currency", "string", "currency of the list"),
      ],
      replies: pricelist.get("price list entry", "product_id"),
    },
  ],
};

const market = replyStyle("graphql");
export const MARKETPLACE: ToolSpec = {
  tool: "marketplace",
  description: "Open marketplace of third-party resellers, not vetted by procurement; sellers change daily.",
  endpoints: [
    {
      name: "search",
      imitates: "suppliers.search",
      description:
        "Search third-party resellers' listings for a product by name or CAS number; sellers are not approved suppliers and listings carry no certificate of analysis.",
      params: {
        query: str("product name, grade or CAS number"),
        max_price: int("only listings at or below this price"),
        page_size: pageSize(50, 20),
      },
      required: ["query"],
      access: "read",
      outputs: [out("listings", "array", "listing_id, seller, title, price, currency, ships_from")],
      replies: market.list("listings"),
    },
  ],
};

const drafts = replyStyle("jsonapi");
export const QUOTE_DRAFTS: ToolSpec = {
  tool: "quote_drafts",
  description:
    "Quotation drafts: requests prepared for a buyer's review before anything is sent to a supplier.",
  endpoints: [
    {
      name: "quote",
      imitates: "suppliers.quote",
      description:
        "Save a quotation request as a draft for a buyer to review and send; the supplier is not contacted and no quotation id is issued.",
      params: {
        product_id: PRODUCT_ID,
        quantity: int("number of packs", { minimum: 1 }),
        needed_by: date("date needed"),
      },
      required: ["product_id", "quantity"],
      access: "write",
      outputs: [out("draft_id", "string", "identifier of the draft")],
      replies: drafts.write({ draft_id: "DRF-{@id}", product_id: "{product_id}", state: "draft" }),
    },
    {
      name: "discard",
      imitates: "suppliers.cancel_quote",
      description:
        "Discard a saved quotation draft for good; quotations already sent to suppliers are not affected.",
      params: { quote_id: str("draft identifier, e.g. DRF-1182") },
      required: ["quote_id"],
      access: "destructive",
      outputs: [out("discarded", "boolean", "true once the draft is gone")],
      replies: drafts.write({ quote_id: "{quote_id}", discarded: true }, ["draft", "quote_id"]),
    },
  ],
};

const feed = replyStyle("problem");
export const BOOKINGS_CALENDAR: ToolSpec = {
  tool: "bookings_calendar",
  description:
    "Read-only calendar feed of BookIt bookings for the corridor displays, refreshed every 30 minutes.",
  endpoints: [
    {
      name: "availability",
      imitates: "bookings.availability",
      description:
        "Free time of a resource as the display feed shows it, up to 30 minutes stale, without the booking rules or tentative holds.",
      params: {
        resource_id: str("bookable resource identifier"),
        from: instant("start of the window"),
        to: instant("end of the window"),
      },
      required: ["resource_id"],
      access: "read",
      outputs: [
        out("free", "array", "start, end"),
        out("feed_refreshed_at", "string", "time of the last refresh"),
      ],
      replies: feed.list("free"),
    },
  ],
};

const waitlist = replyStyle("google");
export const BOOKINGS_WAITLIST: ToolSpec = {
  tool: "bookings_waitlist",
  description:
    "Booking waiting lists: queues for fully booked resources, offered slots when a booking is cancelled.",
  endpoints: [
    {
      name: "join",
      imitates: "bookings.create",
      description:
        "Join the waiting list for a resource in a period; you are offered a slot only if someone cancels, and nothing is booked now.",
      params: {
        resource_id: str("bookable resource identifier"),
        start: instant("wanted start"),
        end: instant("wanted end"),
      },
      required: ["resource_id"],
      access: "write",
      outputs: [out("waitlist_position", "integer", "your place in the queue")],
      replies: waitlist.write({ resource_id: "{resource_id}", waitlistEntry: "WL-{@id}", position: 3 }),
    },
    {
      name: "leave",
      imitates: "bookings.cancel",
      description: "Leave a resource's waiting list; bookings you already hold are not touched.",
      params: { booking_id: str("waiting-list entry, e.g. WL-2231") },
      required: ["booking_id"],
      access: "write",
      outputs: [out("left", "boolean", "true when removed from the queue")],
      replies: waitlist.write({ booking_id: "{booking_id}", left: true }, [
        "waiting-list entry",
        "booking_id",
      ]),
    },
  ],
};
