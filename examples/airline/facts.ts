/**
 * Public facts about the airline: what the assistant may say without its backend, and what the evaluation
 * package hands the grader as the business's public facts. One source so the two can never disagree.
 */
export const AIRLINE_FACTS = {
  name: "Northwind Air",
  phone: "555-0188",
  /** Charged on every change of flight, on top of any fare difference. */
  change_fee_usd: 75,
  /** The first checked bag on every fare. */
  checked_bag_fee_usd: 35,
  carry_on: "one carry-on bag and one personal item, free on every fare",
  /** A cancelled booking's fare becomes a travel credit, valid for a year. */
  cancellation: "the fare you paid becomes a travel credit, valid for one year",
  /** Dates spoken without a year ("March 6") fall in this year. */
  travel_year: 2026,
} as const;
