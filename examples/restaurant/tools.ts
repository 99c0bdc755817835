import type { ToolDeclaration } from "crashlab/alpha";
import { RESTAURANT_FACTS } from "./facts";

/*
 * The backend's tool declarations. Names and arguments are the world's operations exactly (see the
 * restaurant contract); business rules such as opening hours or the party-size limit are left to the
 * world, which refuses with a typed error, so the schema only states formats.
 */

const date = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2}$",
  description: `Calendar date as YYYY-MM-DD. Dates said without a year are in ${RESTAURANT_FACTS.booking_year}.`,
};
const time = {
  type: "string",
  pattern: "^([01]\\d|2[0-3]):[0-5]\\d$",
  description: "Start time in 24-hour HH:MM, for example 19:00 for 7 p.m.",
};
const partySize = { type: "integer", minimum: 1, description: "Number of guests." };
const seating = {
  type: "string",
  enum: [...RESTAURANT_FACTS.seating],
  description: "Seating preference, only when the caller asked for one: indoor, outdoor, patio or bar. Patio is its own choice; outside, terrace and garden mean outdoor.",
};

export const RESTAURANT_TOOLS: ToolDeclaration[] = [
  {
    type: "function",
    name: "check_availability",
    description:
      "Check whether a table is free for a date, time and party size. Read-only: never books anything.",
    parameters: {
      type: "object",
      properties: { date, time, party_size: partySize, seating },
      required: ["date", "time", "party_size"],
      additionalProperties: false,
    },
  },
  {
    type: "function",
    name: "create_reservation",
    description:
      "Create a confirmed reservation. Call once per booking, only with details the caller gave. Returns the reservation id.",
    parameters: {
      type: "object",
      properties: {
        guest_name: { type: "string", minLength: 1, description: "Name the reservation is under, as the caller gave it." },
        date,
        time,
        party_size: partySize,
        seating,
      },
      required: ["guest_name", "date", "time", "party_size"],
      additionalProperties: false,
    },
  },
  {
    type: "function",
    name: "cancel_reservation",
    description:
      "Cancel an existing reservation. Only for a reservation id the verified caller is authorized for.",
    parameters: {
      type: "object",
      properties: {
        reservation_id: { type: "string", minLength: 1, description: "Reservation id, for example R-1001." },
      },
      required: ["reservation_id"],
      additionalProperties: false,
    },
  },
];
