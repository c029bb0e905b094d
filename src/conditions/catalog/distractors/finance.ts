/**
 * Distractors from finance and procurement administration: purchase requisitions, accounts
 * payable, expense claims, research grants, business travel and timesheets. They share money,
 * approval and supplier words with the supplier catalogue, never its products or prices.
 */
import { replyStyle } from "../reply-styles.ts";
import { date, int, num, oneOf, out, pageSize, pageToken, str, type ToolSpec } from "../spec.ts";

const CURRENCY = oneOf(["EUR", "USD", "GBP", "JPY", "KRW"], "currency (default EUR)", "EUR");

const req = replyStyle("odata");
export const PROCUREMENT: ToolSpec = {
  tool: "procurement",
  description:
    "Procurement workflow (ERP): purchase requisitions, their approval chain and the purchase orders raised from them.",
  endpoints: [
    {
      name: "create_requisition",
      description:
        "Raise a purchase requisition against a cost centre for goods or services from a vendor, with amount and justification, for budget-holder approval.",
      params: {
        vendor_id: str("ERP vendor number, e.g. V-100482"),
        description: str("what is being bought"),
        amount: num("estimated net amount", { minimum: 0 }),
        currency: CURRENCY,
        cost_centre: str("cost centre charged, e.g. CC-4410"),
      },
      required: ["vendor_id", "description", "amount", "cost_centre"],
      access: "write",
      outputs: [
        out("requisition_no", "string", "requisition number"),
        out("approval_state", "string", "awaiting_approval"),
      ],
      replies: req.write({
        requisition_no: "PR-{@id}",
        cost_centre: "{cost_centre}",
        approval_state: "awaiting_approval",
      }),
    },
    {
      name: "requisition_status",
      description:
        "Where a purchase requisition is in its approval chain, who must approve next, and the purchase order number once one is raised.",
      params: { requisition_no: str("requisition number, e.g. PR-2026-01187") },
      required: ["requisition_no"],
      access: "read",
      outputs: [
        out("approval_state", "string", "state"),
        out("next_approver", "string", "who approves next"),
        out("po_number", "string", "purchase order, once raised"),
      ],
      replies: req.get("purchase requisition", "requisition_no"),
    },
    {
      name: "approve_requisition",
      description:
        "Approve or reject a purchase requisition waiting for you as budget holder, with a comment.",
      params: {
        requisition_no: str("requisition number"),
        decision: oneOf(["approve", "reject"], "your decision"),
        comment: str("comment for the requester"),
      },
      required: ["requisition_no", "decision"],
      access: "write",
      outputs: [out("approval_state", "string", "state after the decision")],
      replies: req.write({ requisition_no: "{requisition_no}", decision: "{decision}" }, [
        "purchase requisition",
        "requisition_no",
      ]),
    },
    {
      name: "list_purchase_orders",
      description:
        "List purchase orders of a cost centre or vendor in a date range, with value, currency and delivery state.",
      params: {
        cost_centre: str("only this cost centre"),
        vendor_id: str("only this vendor"),
        from_date: date("ordered on or after"),
        to_date: date("ordered on or before"),
        top: int("orders per page (default 50)", { minimum: 1, maximum: 500, default: 50 }),
        skip: int("orders to skip", { minimum: 0, default: 0 }),
      },
      required: [],
      access: "read",
      outputs: [out("orders", "array", "po_number, vendor, net_value, currency, delivery_state")],
      replies: req.list("orders"),
    },
  ],
};

const ap = replyStyle("fault");
export const ACCOUNTS_PAYABLE: ToolSpec = {
  tool: "accounts_payable",
  description: "Accounts payable: vendor master data, incoming invoices and their payment runs.",
  endpoints: [
    {
      name: "vendor",
      description:
        "A vendor's master record: legal name, VAT number, bank account (masked), payment terms and the buyer responsible.",
      params: { vendor_id: str("ERP vendor number") },
      required: ["vendor_id"],
      access: "read",
      outputs: [out("vendor", "object", "legal_name, vat_number, iban_masked, payment_terms, buyer")],
      replies: ap.get("vendor", "vendor_id"),
    },
    {
      name: "invoice",
      description:
        "An incoming vendor invoice: amount, tax, due date, three-way match state against order and goods receipt.",
      params: { invoice_no: str("invoice document number, e.g. INV-88-20456") },
      required: ["invoice_no"],
      access: "read",
      outputs: [out("invoice", "object", "vendor, gross_amount, tax, currency, due_on, match_state")],
      replies: ap.get("invoice", "invoice_no"),
    },
    {
      name: "schedule_payment",
      description: "Put a matched invoice into the next payment run on its due date or an earlier date.",
      params: {
        invoice_no: str("invoice document number"),
        pay_on: date("payment date (default the due date)"),
      },
      required: ["invoice_no"],
      access: "write",
      outputs: [out("payment_run", "string", "payment run the invoice joined")],
      replies: ap.write({ invoice_no: "{invoice_no}", payment_run: "RUN-{@id}" }, ["invoice", "invoice_no"]),
    },
    {
      name: "void_payment",
      description:
        "Void a payment that has not yet left the bank file; the invoice returns to open and the vendor is not paid.",
      params: { payment_id: str("payment document number"), reason: str("reason for the audit trail") },
      required: ["payment_id", "reason"],
      access: "destructive",
      outputs: [out("voided", "boolean", "true")],
      replies: ap.write({ payment_id: "{payment_id}", voided: true }, ["payment", "payment_id"]),
    },
  ],
};

const exp = replyStyle("jsonapi");
export const EXPENSES: ToolSpec = {
  tool: "expenses",
  description:
    "Expense claims: receipts for travel, conference fees and small purchases reimbursed to staff.",
  endpoints: [
    {
      name: "submit_claim",
      description:
        "Submit an expense claim with its amount, category, date and receipt image for your manager to approve.",
      params: {
        amount: num("amount paid", { minimum: 0 }),
        currency: CURRENCY,
        category: oneOf(
          ["travel", "accommodation", "meals", "conference_fee", "small_purchase"],
          "expense category",
        ),
        spent_on: date("date of the expense"),
        receipt_file: str("uploaded receipt file id"),
      },
      required: ["amount", "category", "spent_on"],
      access: "write",
      outputs: [out("claim_id", "string", "identifier of the claim")],
      replies: exp.write({ claim_id: "EC-{@id}", state: "submitted" }),
    },
    {
      name: "claim_status",
      description:
        "State of an expense claim (draft, submitted, approved, paid, rejected) and the amount reimbursed.",
      params: { claim_id: str("expense claim identifier") },
      required: ["claim_id"],
      access: "read",
      outputs: [out("state", "string", "claim state"), out("reimbursed", "number", "amount paid back")],
      replies: exp.get("expense claim", "claim_id"),
    },
    {
      name: "list_claims",
      description: "Your expense claims of a period with their states and totals.",
      params: {
        from_date: date("claims from"),
        to_date: date("claims to"),
        state: oneOf(["draft", "submitted", "approved", "paid", "rejected"], "only this state"),
      },
      required: [],
      access: "read",
      outputs: [out("claims", "array", "claim_id, category, amount, currency, state")],
      replies: exp.list("claims"),
    },
    {
      name: "delete_draft",
      description: "Delete an expense claim still in draft, with its attached receipts.",
      params: { claim_id: str("draft claim identifier") },
      required: ["claim_id"],
      access: "destructive",
      outputs: [out("deleted", "boolean", "true")],
      replies: exp.write({ claim_id: "{claim_id}", deleted: true }, ["draft claim", "claim_id"]),
    },
  ],
};

const grants = replyStyle("spring");
export const GRANTS: ToolSpec = {
  tool: "grants",
  description: "Research grants office: funded projects, their budgets, spending and reporting deadlines.",
  endpoints: [
    {
      name: "award",
      description:
        "A grant award: funder, programme, principal investigator, start and end dates and the awarded total.",
      params: { award_id: str("award number, e.g. GA-2025-0311") },
      required: ["award_id"],
      access: "read",
      outputs: [out("award", "object", "funder, programme, pi, starts_on, ends_on, total, currency")],
      replies: grants.get("grant award", "award_id"),
    },
    {
      name: "budget_balance",
      description:
        "Remaining budget of a grant per cost category (staff, equipment, consumables, travel, overheads) after commitments.",
      params: { award_id: str("award number"), as_of: date("balance on this date (default today)") },
      required: ["award_id"],
      access: "read",
      outputs: [out("categories", "array", "category, budget, spent, committed, remaining, currency")],
      replies: grants.get("grant award", "award_id"),
    },
    {
      name: "expenditures",
      description:
        "Transactions charged to a grant in a period: date, supplier or employee, category and amount.",
      params: {
        award_id: str("award number"),
        from_date: date("from"),
        to_date: date("to"),
        page_size: pageSize(500, 100),
        page_token: pageToken(),
      },
      required: ["award_id"],
      access: "read",
      outputs: [out("transactions", "array", "booked_on, counterparty, category, amount, currency")],
      replies: grants.list("transactions"),
    },
    {
      name: "submit_report",
      description: "Submit a periodic financial or technical report of a grant to the funder's portal.",
      params: {
        award_id: str("award number"),
        period: str("reporting period, e.g. '2026-H1'"),
        report_file: str("uploaded report file id"),
      },
      required: ["award_id", "period", "report_file"],
      access: "write",
      outputs: [out("submission_id", "string", "funder portal reference")],
      replies: grants.write({ awardId: "{award_id}", period: "{period}", submissionId: "FR-{@id}" }, [
        "grant award",
        "award_id",
      ]),
    },
  ],
};

const travel = replyStyle("graphql");
export const TRAVEL: ToolSpec = {
  tool: "travel",
  description: "Business travel booking: flights, hotels and trips within the travel policy.",
  endpoints: [
    {
      name: "search_flights",
      description:
        "Search policy-compliant flights between two airports on a date, with fares and carbon estimate.",
      params: {
        origin: str("IATA airport code"),
        destination: str("IATA airport code"),
        depart_on: date("departure date"),
        cabin: oneOf(["economy", "premium_economy"], "cabin"),
      },
      required: ["origin", "destination", "depart_on"],
      access: "read",
      outputs: [out("offers", "array", "offer_id, carrier, departs, arrives, fare, currency, co2_kg")],
      replies: travel.list("flightOffers"),
    },
    {
      name: "book_trip",
      description:
        "Book a flight offer and optional hotel as one trip charged to a project, pending travel-policy approval.",
      params: {
        offer_id: str("flight offer id"),
        hotel_id: str("hotel id"),
        project_code: str("project charged"),
      },
      required: ["offer_id", "project_code"],
      access: "write",
      outputs: [out("trip_id", "string", "trip identifier")],
      replies: travel.write({ bookTrip: { tripId: "TR-{@id}", status: "PENDING_APPROVAL" } }),
    },
    {
      name: "itinerary",
      description: "A booked trip's itinerary: flights, hotel, confirmation numbers and approval state.",
      params: { trip_id: str("trip identifier") },
      required: ["trip_id"],
      access: "read",
      outputs: [out("segments", "array", "type, from, to, at, confirmation")],
      replies: travel.get("trip", "trip_id"),
    },
    {
      name: "cancel_trip",
      description: "Cancel a booked trip; non-refundable fares are lost and the hotel is released.",
      params: { trip_id: str("trip identifier") },
      required: ["trip_id"],
      access: "destructive",
      outputs: [out("refund", "number", "amount refunded")],
      replies: travel.write({ cancelTrip: { tripId: "{trip_id}", status: "CANCELLED" } }, [
        "trip",
        "trip_id",
      ]),
    },
  ],
};

const hours = replyStyle("slack");
export const TIMESHEETS: ToolSpec = {
  tool: "timesheets",
  description: "Timesheets: hours staff book to projects and activities, week by week.",
  endpoints: [
    {
      name: "log_hours",
      description: "Book hours worked on a project activity on a day to your timesheet.",
      params: {
        project_code: str("project"),
        activity: str("activity code, e.g. 'TESTING'"),
        day: date("the day"),
        hours: num("hours", { minimum: 0, maximum: 24 }),
      },
      required: ["project_code", "day", "hours"],
      access: "write",
      outputs: [out("entry_id", "string", "timesheet entry")],
      replies: hours.write({ entry_id: "TS-{@id}", day: "{day}", hours: "{hours}" }),
    },
    {
      name: "week",
      description: "Your timesheet for an ISO week: hours per project and day, and whether it is submitted.",
      params: { iso_week: str("ISO week, e.g. '2026-W19'") },
      required: ["iso_week"],
      access: "read",
      outputs: [
        out("entries", "array", "project_code, activity, day, hours"),
        out("submitted", "boolean", "submitted for approval"),
      ],
      replies: hours.get("timesheet", "iso_week"),
    },
    {
      name: "submit_week",
      description: "Submit a week's timesheet for your line manager's approval; it can no longer be edited.",
      params: { iso_week: str("ISO week") },
      required: ["iso_week"],
      access: "write",
      outputs: [out("state", "string", "submitted")],
      replies: hours.write({ iso_week: "{iso_week}", state: "submitted" }, ["timesheet", "iso_week"]),
    },
  ],
};
