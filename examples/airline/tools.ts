/**
 * The airline backend's tool declarations: names and arguments are the reservation system's operations.
 * Business rules (sold-out flights, taken seats, whose booking it is) are left to the system, which refuses
 * with a typed error, so the schemas only state formats.
 */
import type { ToolDeclaration } from "crashlab/alpha";
import { AIRLINE_FACTS } from "./facts";

const confirmation_code = {
  type: "string",
  pattern: "^[A-Za-z0-9]{6}$",
  description: "The booking's six-character confirmation code, letters and digits, such as QX7K2B.",
};
const flight_number = { type: "string", pattern: "^NW\\d{1,4}$", description: "Flight number without a space, such as NW218." };
const departure_date = {
  type: "string",
  pattern: "^\\d{4}-\\d{2}-\\d{2}$",
  description: `Departure date as YYYY-MM-DD. Dates said without a year are in ${AIRLINE_FACTS.travel_year}.`,
};
const seat = { type: "string", pattern: "^([1-9]|[12]\\d|30)[A-F]$", description: "Seat, row 1 to 30 and letter A to F, such as 12A." };

const object = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

export const AIRLINE_TOOLS: ToolDeclaration[] = [
  {
    type: "function",
    name: "get_booking",
    description: "Look up one of the caller's own bookings by confirmation code: flight, date, departure time, seat and status. Changes nothing.",
    parameters: object({ confirmation_code }),
  },
  {
    type: "function",
    name: "quote_change",
    description:
      "What moving one of the caller's bookings to another flight would cost (change fee plus fare difference), and whether that flight has a seat. Changes nothing.",
    parameters: object({ confirmation_code, flight_number, departure_date }),
  },
  {
    type: "function",
    name: "change_flight",
    description:
      "Move one of the caller's bookings to another flight, charging the change fee and any fare difference to the card on file. Only after the caller agreed to the cost. The seat is released.",
    parameters: object({ confirmation_code, flight_number, departure_date }),
  },
  {
    type: "function",
    name: "change_seat",
    description: "Assign another seat on the flight of one of the caller's bookings. Free of charge. Refused when the seat is taken.",
    parameters: object({ confirmation_code, seat }),
  },
  {
    type: "function",
    name: "cancel_booking",
    description: "Cancel one of the caller's bookings. The fare paid becomes a travel credit. Only for the caller's own booking.",
    parameters: object({ confirmation_code }),
  },
];
