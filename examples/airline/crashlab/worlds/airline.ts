/**
 * The airline's reservation system as a world: flights with seats and fares, passengers' bookings (by
 * confirmation code), change fees, and the rule that a caller may read or change only their own bookings.
 */
import { defineWorld, OperationError, z, type Vocabulary } from "crashlab/alpha";
import { AIRLINE_FACTS } from "../../facts";

// ── Formats ─────────────────────────────────────────────────────────────────────────────────────────

const DateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD")
  .describe(`Departure date as YYYY-MM-DD. Dates said without a year are in ${AIRLINE_FACTS.travel_year}.`);
const TimeString = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a 24-hour time as HH:MM");
const ConfirmationCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{6}$/, "expected a six-character confirmation code such as QX7K2B")
  .describe("The booking's six-character confirmation code, letters and digits, such as QX7K2B.");
const FlightNumber = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^NW\d{1,4}$/, "expected a Northwind flight number without a space, such as NW218")
  .describe("Flight number without a space, such as NW218.");
const Seat = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^([1-9]|[12]\d|30)[A-F]$/, "expected a seat from 1A to 30F, such as 12A")
  .describe("Seat, row 1 to 30 and letter A to F, such as 12A.");
const Money = z.number().nonnegative();
const NonEmpty = z.string().trim().min(1, "must not be empty");

// ── State ───────────────────────────────────────────────────────────────────────────────────────────

const Flight = z.strictObject({
  flight_number: FlightNumber,
  departure_date: DateString,
  departure_time: TimeString,
  origin: NonEmpty,
  destination: NonEmpty,
  /** Today's economy fare, in US dollars. */
  fare_usd: Money,
  /** Seats still for sale. */
  seats_available: z.int().nonnegative(),
  /** Seats already assigned to passengers not in this world's bookings. */
  occupied_seats: z.array(Seat),
});
export type Flight = z.output<typeof Flight>;

const Booking = z.strictObject({
  confirmation_code: ConfirmationCode,
  passenger_name: NonEmpty,
  flight_number: FlightNumber,
  departure_date: DateString,
  seat: Seat.nullable(),
  fare_paid_usd: Money,
  status: z.enum(["confirmed", "cancelled"]),
});
export type Booking = z.output<typeof Booking>;

export const AirlineState = z.strictObject({
  /** Keyed by `flightKey(flight_number, departure_date)`. */
  flights: z.record(z.string(), Flight),
  /** Keyed by confirmation code. */
  bookings: z.record(z.string(), Booking),
  /** Who is calling: the bookings this caller may read or change (their own). */
  caller: z.strictObject({ booking_codes: z.array(ConfirmationCode) }),
});
export type AirlineState = z.output<typeof AirlineState>;

export function flightKey(flightNumber: string, date: string): string {
  return `${flightNumber} ${date}`;
}

/** The timetable, Seattle to San Francisco, March 4–8: every flight on every day. */
const TIMETABLE = [
  { flight_number: "NW214", departure_time: "08:05", fare_usd: 149 },
  { flight_number: "NW216", departure_time: "12:30", fare_usd: 159 },
  { flight_number: "NW218", departure_time: "17:40", fare_usd: 169 },
  { flight_number: "NW220", departure_time: "20:55", fare_usd: 129 },
] as const;
const TIMETABLE_DATES = ["2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-16"];
/** Flights that are sold out unless a scenario says otherwise. */
const SOLD_OUT = new Set([flightKey("NW220", "2026-03-06")]);

function defaultFlights(): Record<string, Flight> {
  const flights: Record<string, Flight> = {};
  for (const departure_date of TIMETABLE_DATES)
    for (const f of TIMETABLE) {
      const key = flightKey(f.flight_number, departure_date);
      flights[key] = {
        ...f,
        departure_date,
        origin: "Seattle",
        destination: "San Francisco",
        seats_available: SOLD_OUT.has(key) ? 0 : 9,
        occupied_seats: ["14A", "14B", "3C"],
      };
    }
  return flights;
}

// ── Portable initial state (a scenario's `application.initial_state`) ──────────────────────────────

const PortableState = z.strictObject({
  bookings: z
    .array(
      z.strictObject({
        confirmation_code: ConfirmationCode,
        passenger_name: NonEmpty,
        flight_number: FlightNumber,
        departure_date: DateString,
        seat: Seat.nullable().default(null),
        fare_paid_usd: Money,
        status: z.enum(["confirmed", "cancelled"]).default("confirmed"),
      }),
    )
    .default([])
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((b, i) => {
        if (seen.has(b.confirmation_code)) ctx.addIssue({ code: "custom", path: [i, "confirmation_code"], message: `duplicate confirmation code ${b.confirmation_code}` });
        seen.add(b.confirmation_code);
      });
    }),
  /** Flights added to the timetable, or timetable flights changed (matched by number and date). */
  flights: z
    .array(
      z.strictObject({
        flight_number: FlightNumber,
        departure_date: DateString,
        departure_time: TimeString.optional(),
        origin: NonEmpty.optional(),
        destination: NonEmpty.optional(),
        fare_usd: Money.optional(),
        seats_available: z.int().nonnegative().optional(),
        occupied_seats: z.array(Seat).optional(),
      }),
    )
    .default([]),
  /** The confirmation codes the verified caller owns. */
  caller_booking_codes: z.array(ConfirmationCode).default([]),
});

export function airlineInitialState(portable: Record<string, unknown>): AirlineState {
  const p = PortableState.parse(portable);
  const flights = defaultFlights();
  for (const f of p.flights) {
    const key = flightKey(f.flight_number, f.departure_date);
    const base = flights[key];
    flights[key] = Flight.parse({ ...(base ?? {}), ...Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) });
  }
  const bookings: Record<string, Booking> = {};
  for (const b of p.bookings) bookings[b.confirmation_code] = b;
  return { flights, bookings, caller: { booking_codes: p.caller_booking_codes } };
}

// ── Rules ───────────────────────────────────────────────────────────────────────────────────────────

/** The caller's own booking, or a refusal: not found, or someone else's. */
function ownBooking(state: AirlineState, code: string): Booking {
  const booking = state.bookings[code];
  if (!booking) throw new OperationError("booking_not_found", `No booking has the confirmation code ${code}.`, { confirmation_code: code });
  if (!state.caller.booking_codes.includes(code))
    throw new OperationError("not_authorized", `Booking ${code} is not one of the caller's own bookings.`, { confirmation_code: code });
  return booking;
}

function flightOf(state: AirlineState, flightNumber: string, date: string): Flight {
  const flight = state.flights[flightKey(flightNumber, date)];
  if (!flight) throw new OperationError("flight_not_found", `There is no flight ${flightNumber} on ${date}.`, { flight_number: flightNumber, departure_date: date });
  return flight;
}

function seatTaken(state: AirlineState, flight: Flight, seat: string, except: string): boolean {
  if (flight.occupied_seats.includes(seat)) return true;
  return Object.values(state.bookings).some(
    (b) => b.confirmation_code !== except && b.status === "confirmed" && b.flight_number === flight.flight_number && b.departure_date === flight.departure_date && b.seat === seat,
  );
}

/** What moving a booking to a flight costs: the change fee plus any fare difference (never negative). */
function quote(booking: Booking, flight: Flight) {
  const fare_difference_usd = Math.max(0, flight.fare_usd - booking.fare_paid_usd);
  return { change_fee_usd: AIRLINE_FACTS.change_fee_usd, fare_difference_usd, total_due_usd: AIRLINE_FACTS.change_fee_usd + fare_difference_usd };
}

function flightSummary(flight: Flight) {
  return {
    flight_number: flight.flight_number,
    departure_date: flight.departure_date,
    departure_time: flight.departure_time,
    origin: flight.origin,
    destination: flight.destination,
  };
}

// ── Operations ──────────────────────────────────────────────────────────────────────────────────────

const CodeArgs = z.strictObject({ confirmation_code: ConfirmationCode });
const FlightChangeArgs = z.strictObject({ confirmation_code: ConfirmationCode, flight_number: FlightNumber, departure_date: DateString });

// ── The world's words ───────────────────────────────────────────────────────────────────────────────

/**
 * How callers and agents speak of bookings and flights (docs/worlds.md "Vocabulary"): the grader and the
 * offline caller read generic English, so an airline's own words are declared here.
 */
export const AIRLINE_VOCABULARY = {
  // "Do you want me to book you on that flight?", "I've rebooked you", "I moved you": a change of flight.
  verbs: { rebook: "update", book: "update", move: "update", switch: "update" },
  // Besides the operations' entities (booking, seat): "you're now on flight NW 218", "your ticket".
  nouns: ["flight", "ticket", "reservation"],
  counted: ["passenger", "passengers", "bag", "bags", "traveller", "travellers"],
  idCues: ["confirmation", "code", "reference", "locator"],
  // What the grader and the offline caller read as a question for a field.
  fields: {
    confirmation_code: ["confirmation", "code", "booking reference", "reference", "record locator", "which booking"],
    flight_number: ["which flight", "flight number", "flight"],
    departure_date: ["date", "day", "when", "what day", "which day"],
    seat: ["seat", "which seat", "window", "aisle"],
  },
  availability: ["sold out", "fully booked", "no seats", "full", "available", "unavailable", "has seats"],
  slots: ["seat", "flight"],
} as const satisfies Vocabulary;

export const airlineWorld = defineWorld({
  name: "airline",
  version: "1.0.0",
  state: AirlineState,
  initialState: airlineInitialState,
  operations: {
    get_booking: {
      kind: "read",
      effect: "read",
      description: "Look up one of the caller's own bookings by confirmation code: flight, date, departure time, seat and status. Changes nothing.",
      args: CodeArgs,
      run: ({ state, args }) => {
        const booking = ownBooking(state, args.confirmation_code);
        const flight = flightOf(state, booking.flight_number, booking.departure_date);
        return { confirmation_code: booking.confirmation_code, passenger_name: booking.passenger_name, ...flightSummary(flight), seat: booking.seat, status: booking.status };
      },
    },
    quote_change: {
      kind: "read",
      effect: "read",
      description:
        "What moving one of the caller's bookings to another flight would cost (change fee plus fare difference), and whether that flight has a seat. Changes nothing.",
      args: FlightChangeArgs,
      run: ({ state, args }) => {
        const booking = ownBooking(state, args.confirmation_code);
        const flight = flightOf(state, args.flight_number, args.departure_date);
        const available = flight.seats_available > 0;
        return {
          confirmation_code: booking.confirmation_code,
          ...flightSummary(flight),
          available,
          ...(available ? quote(booking, flight) : { reason: "sold_out" }),
        };
      },
    },
    change_flight: {
      kind: "write",
      effect: "update",
      entity: "booking",
      verbs: ["rebook"],
      description:
        "Move one of the caller's bookings to another flight, charging the change fee and any fare difference to the card on file. Only after the caller agreed to the cost. The seat is released.",
      args: FlightChangeArgs,
      run: ({ state, base, args }) => {
        const booking = ownBooking(base, args.confirmation_code);
        if (booking.status === "cancelled") throw new OperationError("booking_cancelled", `Booking ${booking.confirmation_code} is cancelled.`);
        const flight = flightOf(base, args.flight_number, args.departure_date);
        if (flight.flight_number === booking.flight_number && flight.departure_date === booking.departure_date)
          throw new OperationError("same_flight", `Booking ${booking.confirmation_code} is already on ${flight.flight_number} on ${flight.departure_date}.`);
        if (flight.seats_available === 0)
          throw new OperationError("sold_out", `Flight ${flight.flight_number} on ${flight.departure_date} is sold out.`, { flight_number: flight.flight_number, departure_date: flight.departure_date });
        const cost = quote(booking, flight);
        const old = base.flights[flightKey(booking.flight_number, booking.departure_date)];
        if (old) state.flights[flightKey(old.flight_number, old.departure_date)]!.seats_available = old.seats_available + 1;
        state.flights[flightKey(flight.flight_number, flight.departure_date)]!.seats_available = flight.seats_available - 1;
        const target = state.bookings[booking.confirmation_code]!;
        target.flight_number = flight.flight_number;
        target.departure_date = flight.departure_date;
        target.seat = null;
        target.fare_paid_usd = booking.fare_paid_usd + cost.fare_difference_usd;
        return { confirmation_code: booking.confirmation_code, ...flightSummary(flight), seat: null, ...cost, charged_usd: cost.total_due_usd, status: "confirmed" };
      },
    },
    change_seat: {
      kind: "write",
      effect: "update",
      entity: "seat",
      description: "Assign another seat on the flight of one of the caller's bookings. Free of charge. Refused when the seat is taken.",
      args: z.strictObject({ confirmation_code: ConfirmationCode, seat: Seat }),
      run: ({ state, base, args }) => {
        const booking = ownBooking(base, args.confirmation_code);
        if (booking.status === "cancelled") throw new OperationError("booking_cancelled", `Booking ${booking.confirmation_code} is cancelled.`);
        const flight = flightOf(base, booking.flight_number, booking.departure_date);
        if (seatTaken(base, flight, args.seat, booking.confirmation_code))
          throw new OperationError("seat_taken", `Seat ${args.seat} on ${flight.flight_number} is taken.`, { seat: args.seat });
        state.bookings[booking.confirmation_code]!.seat = args.seat;
        return { confirmation_code: booking.confirmation_code, ...flightSummary(flight), seat: args.seat, status: "confirmed" };
      },
    },
    cancel_booking: {
      kind: "write",
      effect: "cancel",
      entity: "booking",
      description: "Cancel one of the caller's bookings. The fare paid becomes a travel credit. Only for the caller's own booking.",
      args: CodeArgs,
      run: ({ state, base, args }) => {
        const booking = ownBooking(base, args.confirmation_code);
        if (booking.status === "cancelled") throw new OperationError("already_cancelled", `Booking ${booking.confirmation_code} was already cancelled.`);
        state.bookings[booking.confirmation_code]!.status = "cancelled";
        const key = flightKey(booking.flight_number, booking.departure_date);
        const flight = base.flights[key];
        if (flight) state.flights[key]!.seats_available = flight.seats_available + 1;
        return { confirmation_code: booking.confirmation_code, status: "cancelled", travel_credit_usd: booking.fare_paid_usd };
      },
    },
  },
  vocabulary: AIRLINE_VOCABULARY,
  // Who may read which booking: the caller's own, as every operation enforces it (`not_authorized`).
  access: {
    records: (state) => state.bookings,
    readable: (state, code) => state.caller.booking_codes.includes(code),
  },
  invariants: {
    bookings_on_real_flights: (state) =>
      Object.values(state.bookings).every((b) => state.flights[flightKey(b.flight_number, b.departure_date)] !== undefined) || "a booking is on a flight that does not exist",
    one_passenger_per_seat: (state) => {
      const seats = new Set<string>();
      for (const b of Object.values(state.bookings)) {
        if (b.status !== "confirmed" || b.seat === null) continue;
        const key = `${b.flight_number} ${b.departure_date} ${b.seat}`;
        if (seats.has(key)) return `two passengers in seat ${b.seat} on ${b.flight_number} ${b.departure_date}`;
        seats.add(key);
      }
      return true;
    },
  },
  /**
   * The flat view datasets are written against: the booking this call changed (its code, flight, date,
   * seat and status) and what kind of change it was, plus every booking in the scenario's order.
   */
  view: (final, initial) => {
    const touched = Object.values(final.bookings).find((b) => JSON.stringify(b) !== JSON.stringify(initial.bookings[b.confirmation_code]));
    const before = touched ? initial.bookings[touched.confirmation_code] : undefined;
    return {
      flight_changed: !!touched && !!before && (touched.flight_number !== before.flight_number || touched.departure_date !== before.departure_date),
      seat_changed: !!touched && !!before && touched.seat !== before.seat && touched.status === "confirmed",
      cancelled: !!touched && touched.status === "cancelled" && before?.status !== "cancelled",
      confirmation_code: touched?.confirmation_code ?? null,
      flight_number: touched?.flight_number ?? null,
      departure_date: touched?.departure_date ?? null,
      seat: touched?.seat ?? null,
      status: touched?.status ?? null,
      active_booking_count: Object.values(final.bookings).filter((b) => b.status === "confirmed").length,
      bookings: Object.values(final.bookings).map(({ confirmation_code, passenger_name, flight_number, departure_date, seat, status }) => ({
        confirmation_code,
        passenger_name,
        flight_number,
        departure_date,
        seat,
        status,
      })),
    };
  },
});
