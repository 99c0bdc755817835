/**
 * Public facts about the restaurant: what the assistant may say without asking the backend, and what the
 * world seeds its `restaurant` state with. One source so the two can never disagree.
 */
export const RESTAURANT_FACTS = {
  name: "Harbor Table",
  address: "14 Quay Street",
  phone: "555-0142",
  /** 24-hour "HH:MM"; the last seating starts before `close`. */
  hours: { open: "11:00", close: "22:00" },
  days: "daily",
  parking: "Free parking in the lot behind the restaurant; street parking after 6 p.m.",
  seating: ["indoor", "outdoor", "patio", "bar"],
  /** Dates spoken without a year ("August 7") fall in this year. */
  booking_year: 2026,
} as const;

export type SeatingKind = (typeof RESTAURANT_FACTS.seating)[number];
