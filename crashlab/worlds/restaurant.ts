import {
  defineWorld,
  OperationError,
  type ReadContext,
  type StateChange,
  type Vocabulary,
  type WriteContext,
} from "crashlab/alpha";
import { z } from "zod";
import { RESTAURANT_FACTS } from "../../examples/restaurant/facts";

/*
 * The restaurant's booking backend as a world: the shared restaurant contract (facts, three operations,
 * state, portable initial state, flat view) made executable.
 */

// ── Formats ─────────────────────────────────────────────────────────────────────────────────────────

const DateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "expected a date as YYYY-MM-DD", abort: true })
  .refine(isCalendarDate, "not a real calendar date")
  .describe(`Calendar date as YYYY-MM-DD. Dates said without a year are in ${RESTAURANT_FACTS.booking_year}.`);
const TimeString = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a 24-hour time as HH:MM")
  .describe("Start time in 24-hour HH:MM, for example 19:00 for 7 p.m.");
const PartySize = z.int().positive().describe("Number of guests.");
const Seating = z.enum(RESTAURANT_FACTS.seating).describe("Seating preference, only when the caller asked for one.");
const NonEmpty = z.string().trim().min(1, "must not be empty");
const ReservationStatus = z.enum(["confirmed", "cancelled"]);

function isCalendarDate(text: string): boolean {
  // Digit arithmetic rather than Date (and no closure): this runs on every argument parse and state check.
  const year = digitAt(text, 0) * 1000 + digitAt(text, 1) * 100 + digitAt(text, 2) * 10 + digitAt(text, 3);
  const month = digitAt(text, 5) * 10 + digitAt(text, 6);
  const day = digitAt(text, 8) * 10 + digitAt(text, 9);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

function digitAt(text: string, i: number): number {
  return text.charCodeAt(i) - 48;
}

// ── State ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * A reservation. `date`, `time` and `party_size` are null for a reservation whose details are not on file
 * (a scenario may give only its id and guest name, as the public reference harness's datasets do): it can
 * be cancelled, and it holds no table in any slot.
 */
const Reservation = z.strictObject({
  id: z.string().min(1),
  guest_name: NonEmpty,
  date: DateString.nullable(),
  time: TimeString.nullable(),
  party_size: PartySize.nullable(),
  seating: Seating.nullable(),
  status: ReservationStatus,
});
export type Reservation = z.output<typeof Reservation>;

const AvailabilityOverride = z.strictObject({
  date: DateString,
  time: TimeString,
  /** The override applies to parties of at least this size. */
  min_party_size: z.int().positive().default(1),
  /** When set, the override applies only to requests for this seating. */
  seating: Seating.optional(),
  available: z.boolean(),
});

const Hours = z
  .strictObject({ open: TimeString, close: TimeString })
  .refine((h) => h.open < h.close, "`open` must be earlier than `close`");

export const RestaurantState = z.strictObject({
  restaurant: z.strictObject({
    name: NonEmpty,
    address: NonEmpty,
    phone: NonEmpty,
    hours: Hours,
    parking: z.string(),
  }),
  capacity: z.strictObject({
    tables_per_slot: z.int().nonnegative().default(4),
    max_party_size: z.int().positive().default(12),
  }),
  availability_overrides: z.array(AvailabilityOverride),
  reservations: z.record(z.string().min(1), Reservation),
  caller: z.strictObject({ authorized_reservation_ids: z.array(z.string()) }),
});
export type RestaurantState = z.output<typeof RestaurantState>;

export const DEFAULT_CAPACITY = { tables_per_slot: 4, max_party_size: 12 } as const;

/** Every world starts with these; a scenario's overrides are appended. */
export const DEFAULT_AVAILABILITY_OVERRIDES: ReadonlyArray<z.output<typeof AvailabilityOverride>> = [
  { date: "2026-08-07", time: "21:00", min_party_size: 6, available: false },
];

// ── Portable initial state (a scenario's `application.initial_state`) ──────────────────────────────

/**
 * A reservation as a dataset writes it. The reference harness's shape `{reservation_id, guest_name,
 * cancelled}` is accepted as it is: `cancelled: true|false` says what `status` says, and details that are
 * left out are not on file.
 */
const PortableReservation = z
  .strictObject({
    reservation_id: z.string().min(1).optional(),
    id: z.string().min(1).optional(),
    guest_name: NonEmpty,
    date: DateString.optional(),
    time: TimeString.optional(),
    party_size: PartySize.optional(),
    seating: Seating.optional(),
    status: ReservationStatus.optional(),
    cancelled: z.boolean().optional(),
  })
  .superRefine((r, ctx) => {
    if (r.reservation_id === undefined && r.id === undefined) {
      ctx.addIssue({ code: "custom", path: ["reservation_id"], message: "required: give `reservation_id` (or `id`)" });
    } else if (r.reservation_id !== undefined && r.id !== undefined && r.reservation_id !== r.id) {
      ctx.addIssue({ code: "custom", path: ["id"], message: `differs from reservation_id "${r.reservation_id}": give one of the two` });
    }
    if (r.status !== undefined && r.cancelled !== undefined && (r.status === "cancelled") !== r.cancelled) {
      ctx.addIssue({ code: "custom", path: ["cancelled"], message: `contradicts status "${r.status}": give one of the two` });
    }
    if ((r.date === undefined) !== (r.time === undefined)) {
      ctx.addIssue({ code: "custom", path: [r.date === undefined ? "date" : "time"], message: "required with `" + (r.date === undefined ? "time" : "date") + "`: a reservation's slot is a date and a time (leave both out when they are not on file)" });
    }
  });

const PortableRestaurantState = z.strictObject({
  reservations: z
    .array(PortableReservation)
    .superRefine((list, ctx) => {
      const first = new Map<string, number>();
      list.forEach((r, i) => {
        const id = r.reservation_id ?? r.id;
        if (id === undefined) return;
        const earlier = first.get(id);
        if (earlier === undefined) first.set(id, i);
        else ctx.addIssue({ code: "custom", path: [i, "reservation_id"], message: `duplicate reservation id "${id}" (also at reservations[${earlier}])` });
      });
    })
    .optional(),
  authorized_reservation_ids: z.array(z.string().min(1)).optional(),
  availability_overrides: z.array(AvailabilityOverride).optional(),
  capacity: z
    .strictObject({
      tables_per_slot: z.int().nonnegative().optional(),
      max_party_size: z.int().positive().optional(),
    })
    .optional(),
  restaurant: z
    .strictObject({
      name: NonEmpty.optional(),
      address: NonEmpty.optional(),
      phone: NonEmpty.optional(),
      hours: z.strictObject({ open: TimeString.optional(), close: TimeString.optional() }).optional(),
      parking: z.string().optional(),
    })
    .optional(),
});
export type PortableRestaurantState = z.input<typeof PortableRestaurantState>;

/** Portable → full state. Zod errors propagate; the engine reports them at `application.initial_state…`. */
export function restaurantInitialState(portable: Record<string, unknown>): RestaurantState {
  const p = PortableRestaurantState.parse(portable);
  const reservations: Record<string, Reservation> = {};
  for (const r of p.reservations ?? []) {
    const id = (r.reservation_id ?? r.id)!;
    reservations[id] = {
      id,
      guest_name: r.guest_name,
      date: r.date ?? null,
      time: r.time ?? null,
      party_size: r.party_size ?? null,
      seating: r.seating ?? null,
      status: r.status ?? (r.cancelled ? "cancelled" : "confirmed"),
    };
  }
  const { hours, ...restaurant } = p.restaurant ?? {};
  return {
    restaurant: {
      name: restaurant.name ?? RESTAURANT_FACTS.name,
      address: restaurant.address ?? RESTAURANT_FACTS.address,
      phone: restaurant.phone ?? RESTAURANT_FACTS.phone,
      hours: { open: hours?.open ?? RESTAURANT_FACTS.hours.open, close: hours?.close ?? RESTAURANT_FACTS.hours.close },
      parking: restaurant.parking ?? RESTAURANT_FACTS.parking,
    },
    capacity: {
      tables_per_slot: p.capacity?.tables_per_slot ?? DEFAULT_CAPACITY.tables_per_slot,
      max_party_size: p.capacity?.max_party_size ?? DEFAULT_CAPACITY.max_party_size,
    },
    availability_overrides: [...DEFAULT_AVAILABILITY_OVERRIDES.map((o) => ({ ...o })), ...(p.availability_overrides ?? [])],
    reservations,
    caller: { authorized_reservation_ids: p.authorized_reservation_ids ?? [] },
  };
}

// ── Business rules ──────────────────────────────────────────────────────────────────────────────────

interface SlotRequest {
  date: string;
  time: string;
  party_size: number;
  seating?: string | undefined;
}

type Refusal = { code: "invalid_party_size" | "outside_hours" | "slot_unavailable"; message: string };

/** Why a table cannot be given for this request, or undefined when it can. */
function slotRefusal(state: RestaurantState, req: SlotRequest): Refusal | undefined {
  const { name, hours } = state.restaurant;
  const { max_party_size, tables_per_slot } = state.capacity;
  if (req.party_size > max_party_size) {
    return {
      code: "invalid_party_size",
      message: `${name} books parties of up to ${max_party_size}; ${req.party_size} guests is too many for one reservation.`,
    };
  }
  if (req.time < hours.open || req.time >= hours.close) {
    return {
      code: "outside_hours",
      message: `${name} seats guests from ${hours.open} until ${hours.close}; ${req.time} is outside those hours.`,
    };
  }
  const where = `${req.date} at ${req.time}${req.seating ? ` (${req.seating})` : ""}`;
  for (const o of state.availability_overrides) {
    if (
      !o.available &&
      o.date === req.date &&
      o.time === req.time &&
      req.party_size >= o.min_party_size &&
      (o.seating === undefined || o.seating === req.seating)
    ) {
      return { code: "slot_unavailable", message: `No table for ${req.party_size} on ${where}.` };
    }
  }
  const booked = slotCounts(state.reservations).get(slotKey(req.date, req.time)) ?? 0;
  if (booked >= tables_per_slot) {
    return { code: "slot_unavailable", message: `${req.date} at ${req.time} is fully booked.` };
  }
  return undefined;
}

// ── Slot counts ─────────────────────────────────────────────────────────────────────────────────────

type Reservations = RestaurantState["reservations"];

/** Confirmed reservations per slot, keyed by `slotKey`; slots without any are absent. */
export type SlotCounts = ReadonlyMap<string, number>;

function slotKey(date: string, time: string): string {
  return `${date} ${time}`;
}

/**
 * One reservations record's slot counts. Counting them afresh costs O(reservations) and a write asks on
 * every call, so each record's counts are derived from the record before it (the no_overbooking
 * invariant links them: it sees every write's previous state and patches). Along such a lineage exactly
 * one node holds the Map; every other node holds what turns its neighbour's counts into its own, and
 * reading a node moves the Map to it (Baker's rerooting). Going from a write's previous state to its next
 * state, or back after a rollback, costs what the write changed, never O(reservations).
 */
interface SlotNode {
  counts: Map<string, number> | undefined;
  toward: SlotNode | undefined;
  /** `sign` times these changes, applied to `toward`'s counts, give this node's counts. */
  delta: SlotDelta | undefined;
  sign: 1 | -1;
}

/** Per-slot changes in confirmed reservations: slot, change, slot, change, … */
type SlotDelta = Array<string | number>;

const slotNodes = new WeakMap<Reservations, SlotNode>();

/** Confirmed reservations per slot in this reservations record; do not mutate the map. */
export function slotCounts(reservations: Reservations): SlotCounts {
  let node = slotNodes.get(reservations);
  if (node === undefined) {
    node = { counts: countSlots(reservations), toward: undefined, delta: undefined, sign: 1 };
    slotNodes.set(reservations, node);
  }
  return reroot(node);
}

/** The counts by a full pass: for a record that no write led to (an initial state, say). */
export function countSlots(reservations: Reservations): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id in reservations) {
    const r = reservations[id]!;
    if (holdsTable(r)) addTo(counts, slotKey(r.date!, r.time!), 1);
  }
  return counts;
}

/** Move the counts to this node, turning the edges on the way around. */
function reroot(node: SlotNode): Map<string, number> {
  if (node.counts !== undefined) return node.counts;
  const path: SlotNode[] = [];
  let holder = node;
  while (holder.counts === undefined) {
    path.push(holder);
    holder = holder.toward!;
  }
  const counts = holder.counts;
  for (let i = path.length - 1; i >= 0; i--) {
    const next = path[i]!; // next.toward === holder
    const delta = next.delta!;
    for (let j = 0; j < delta.length; j += 2) addTo(counts, delta[j] as string, next.sign * (delta[j + 1] as number));
    holder.counts = undefined;
    holder.toward = next;
    holder.delta = delta;
    holder.sign = next.sign === 1 ? -1 : 1;
    next.counts = counts;
    next.toward = undefined;
    next.delta = undefined;
    holder = next;
  }
  return counts;
}

/** A confirmed reservation with a slot on file takes a table in that slot. */
function holdsTable(r: Reservation | undefined): boolean {
  return r !== undefined && r.status === "confirmed" && r.date !== null && r.time !== null;
}

function addTo(counts: Map<string, number>, slot: string, by: number): void {
  const n = (counts.get(slot) ?? 0) + by;
  if (n === 0) counts.delete(slot);
  else counts.set(slot, n);
}

/** How a write changed the slot counts, from the reservations it touched. */
function slotDelta(before: Reservations, after: Reservations, ids: readonly string[]): SlotDelta {
  const delta: SlotDelta = [];
  const seen = ids.length > 1 ? new Set<string>() : undefined;
  for (const id of ids) {
    if (seen) {
      if (seen.has(id)) continue; // a write may touch one reservation through several patches
      seen.add(id);
    }
    const old = Object.hasOwn(before, id) ? before[id] : undefined;
    const now = Object.hasOwn(after, id) ? after[id] : undefined;
    const from = holdsTable(old) ? slotKey(old!.date!, old!.time!) : undefined;
    const to = holdsTable(now) ? slotKey(now!.date!, now!.time!) : undefined;
    if (from === to) continue;
    if (from !== undefined) addToDelta(delta, from, -1);
    if (to !== undefined) addToDelta(delta, to, 1);
  }
  return delta;
}

function addToDelta(delta: SlotDelta, slot: string, by: number): void {
  for (let j = 0; j < delta.length; j += 2) {
    if (delta[j] === slot) {
      delta[j + 1] = (delta[j + 1] as number) + by;
      return;
    }
  }
  delta.push(slot, by);
}

/** Every slot whose count differs between two records (for a write that replaced the whole record). */
function fullSlotDelta(before: Reservations, after: Reservations): SlotDelta {
  const counts = countSlots(after);
  for (const [slot, n] of countSlots(before)) addTo(counts, slot, -n);
  return [...counts].flat();
}

// ── Operations ──────────────────────────────────────────────────────────────────────────────────────

const CheckAvailabilityArgs = z.strictObject({
  date: DateString,
  time: TimeString,
  party_size: PartySize,
  seating: Seating.optional(),
});
type CheckAvailabilityArgs = z.output<typeof CheckAvailabilityArgs>;

const CreateReservationArgs = z.strictObject({
  guest_name: NonEmpty.describe("Name the reservation is under, as the caller gave it."),
  date: DateString,
  time: TimeString,
  party_size: PartySize,
  seating: Seating.optional(),
});
type CreateReservationArgs = z.output<typeof CreateReservationArgs>;

const CancelReservationArgs = z.strictObject({
  reservation_id: z.string().trim().min(1, "must not be empty").describe("The reservation id, such as R-4F2A9C."),
});
type CancelReservationArgs = z.output<typeof CancelReservationArgs>;

function checkAvailability({ state, args }: ReadContext<RestaurantState, CheckAvailabilityArgs>) {
  const refusal = slotRefusal(state, args);
  return {
    available: refusal === undefined,
    date: args.date,
    time: args.time,
    party_size: args.party_size,
    seating: args.seating ?? null,
    // The refusal code create_reservation would give, so both tools speak one vocabulary.
    ...(refusal ? { reason: refusal.code } : {}),
  };
}

function createReservation({ state, base, args, random }: WriteContext<RestaurantState, CreateReservationArgs>) {
  const refusal = slotRefusal(base, args);
  if (refusal) {
    throw new OperationError(refusal.code, refusal.message, {
      date: args.date,
      time: args.time,
      party_size: args.party_size,
      seating: args.seating ?? null,
    });
  }
  let id = random.id("R");
  while (Object.hasOwn(base.reservations, id)) id = random.id("R"); // a scenario may already use this id
  const reservation: Reservation = {
    id,
    guest_name: args.guest_name,
    date: args.date,
    time: args.time,
    party_size: args.party_size,
    seating: args.seating ?? null,
    status: "confirmed",
  };
  state.reservations[id] = reservation;
  return {
    reservation_id: id,
    status: "confirmed" as const,
    guest_name: reservation.guest_name,
    date: reservation.date,
    time: reservation.time,
    party_size: reservation.party_size,
    seating: reservation.seating,
  };
}

function cancelReservation({ state, base, args }: WriteContext<RestaurantState, CancelReservationArgs>) {
  const id = args.reservation_id;
  const existing = Object.hasOwn(base.reservations, id) ? base.reservations[id] : undefined;
  if (!existing) throw new OperationError("not_found", `There is no reservation ${id}.`, { reservation_id: id });
  // Checked before the status so an unverified caller learns nothing about someone else's booking.
  if (!base.caller.authorized_reservation_ids.includes(id)) {
    throw new OperationError("not_authorized", `This caller is not verified for reservation ${id}.`, { reservation_id: id });
  }
  if (existing.status === "cancelled") {
    throw new OperationError("already_cancelled", `Reservation ${id} is already cancelled.`, { reservation_id: id });
  }
  state.reservations[id]!.status = "cancelled";
  return { reservation_id: id, status: "cancelled" as const };
}

// ── Invariants ──────────────────────────────────────────────────────────────────────────────────────

/**
 * The reservation ids a write touched (possibly repeated), or every id when it is not that simple (or on
 * the initial state), so invariants stay exact while a write costs O(touched) rather than O(reservations).
 */
function touchedReservationIds(state: RestaurantState, change?: StateChange<RestaurantState>): readonly string[] {
  if (!change) return Object.keys(state.reservations);
  const touched: string[] = [];
  for (const { path } of change.patches) {
    if (path.startsWith("/reservations/")) {
      touched.push(reservationIdIn(path));
    } else if (path === "" || path === "/reservations" || path.startsWith("/capacity")) {
      return Object.keys(state.reservations);
    }
  }
  return touched;
}

/** The reservation ids a write's patches touched, or undefined when it replaced the whole record. */
function changedReservationIds(change: StateChange<RestaurantState>): string[] | undefined {
  const changed: string[] = [];
  for (const { path } of change.patches) {
    if (path.startsWith("/reservations/")) changed.push(reservationIdIn(path));
    else if (path === "" || path === "/reservations") return undefined;
  }
  return changed;
}

/** The id segment of a `/reservations/<id>…` JSON Pointer, unescaped (RFC 6901). */
function reservationIdIn(path: string): string {
  const end = path.indexOf("/", 14);
  const segment = end === -1 ? path.slice(14) : path.slice(14, end);
  return segment.includes("~") ? segment.replace(/~1/g, "/").replace(/~0/g, "~") : segment;
}

/**
 * A write never adds a confirmed reservation to a slot that is already full (create_reservation refuses
 * first; this holds the rule even for a future operation that forgets to). A scenario may start with a
 * slot over capacity, so the initial state is not held to it. It also links each write's reservations
 * to the previous ones for `slotCounts`, so the next write's check costs O(1).
 */
function noOverbooking(state: RestaurantState, change?: StateChange<RestaurantState>): true | string {
  if (!change) return true;
  const before = change.previous.reservations;
  const after = state.reservations;
  if (before === after) return true;
  const ids = changedReservationIds(change);
  const delta = ids ? slotDelta(before, after, ids) : fullSlotDelta(before, after);
  let node = slotNodes.get(after);
  if (node === undefined) {
    // Link to the previous record's counts; when nobody asked for those, the first question counts afresh.
    const previous = slotNodes.get(before);
    if (previous !== undefined) slotNodes.set(after, (node = { counts: undefined, toward: previous, delta, sign: 1 }));
  }
  const tables = state.capacity.tables_per_slot;
  let counts: SlotCounts | undefined;
  for (let j = 0; j < delta.length; j += 2) {
    if ((delta[j + 1] as number) <= 0) continue;
    counts ??= node !== undefined ? reroot(node) : slotCounts(after);
    const slot = delta[j] as string;
    const booked = counts.get(slot) ?? 0;
    if (booked > tables) return `slot ${slot} would hold ${booked} confirmed reservations; tables_per_slot is ${tables}`;
  }
  return true;
}

// ── The world's words ───────────────────────────────────────────────────────────────────────────────

/**
 * How callers and assistants speak of a restaurant (docs/worlds.md "Vocabulary"): the engine reads generic
 * English only, so every restaurant word the grader and the offline caller need is here.
 */
export const RESTAURANT_VOCABULARY = {
  // "You're booked", "I've reserved it": a create. "Yes, please book it." is the caller's yes to one.
  verbs: { book: "create", reserve: "create" },
  // Besides the operations' entity (reservation): "the table is yours", "six tables", "two seats".
  nouns: ["table", "booking", "seat"],
  // A caller who wants "a table" or "the booking" wants a create.
  actionNouns: { booking: "create", table: "create" },
  counted: ["guest", "guests", "diners", "covers"],
  idCues: ["booking"],
  // What the grader reads as a question for a field (clarification and correction steps).
  fields: {
    guest_name: ["name", "who", "called"],
    party_size: ["how many", "people", "guest", "party", "person", "group", "size", "of you"],
    // "Which of your reservations…?" asks for one; "Who is the booking for?" asks for a name.
    reservation_id: ["which … reservation", "which … booking", "which one", "confirmation", "number", "code", "reference", "id"],
    guest: ["name"],
    party: ["how many", "people", "guest", "party", "person", "group"],
    size: ["how many", "people", "guest", "party"],
    reservation: ["reservation", "booking", "confirmation"],
    seating: ["seating", "seat", "table", "indoor", "indoors", "inside", "outdoor", "outdoors", "outside", "patio", "bar"],
  },
  // What the offline caller hears asked for, in the order it lists the fields (date and time in their
  // place among the restaurant's own; the generic phone and email follow).
  callerFields: {
    guest_name: ["name", "surname", "under what", "under whose", "who is the", "who should"],
    date: ["date", "day", "which day", "what day", "when"],
    time: ["time", "hour", "o'clock", "what time", "when"],
    party_size: ["people", "person", "guest", "party", "size", "diner", "seat", "group", "how many", "how large", "how big"],
    reservation_id: ["reservation", "booking", "confirmation", "reference", "id", "reservation number", "booking number", "confirmation number"],
    seating: ["seating", "patio", "indoor", "indoors", "outdoor", "outdoors", "inside", "outside", "terrace", "where would you like to sit"],
  },
  // Slot names as callers say them: `guests` and `party_size` are one field, `booking_id` and `reservation_id` too.
  aliases: { booking: "reservation", guests: "party", people: "party", persons: "party" },
  // Reports of how a request turned out, either way; the first found is the one quoted.
  availability: ["fully booked", "unavailable", "available", "no availability", "no table", "no tables", "confirmation number", "reservation number", "booking reference"],
  slots: ["table", "seat"],
} as const satisfies Vocabulary;

// ── The world ───────────────────────────────────────────────────────────────────────────────────────

export const restaurantWorld = defineWorld<RestaurantState>({
  name: "restaurant",
  // 1.1: reservations whose details are not on file, `cancelled` in initial states, patio seating, the
  // cancelled reservation's id as `reservation_id` in the view, and the view's list of reservations.
  version: "1.1.0",
  state: RestaurantState,
  initialState: restaurantInitialState,
  operations: {
    check_availability: {
      kind: "read",
      effect: "read",
      description: "Check whether a table is free for a date, time and party size. Read-only: never books anything.",
      args: CheckAvailabilityArgs,
      run: checkAvailability,
    },
    create_reservation: {
      kind: "write",
      effect: "create",
      entity: "reservation",
      description:
        "Create a confirmed reservation. Call once per booking, only with details the caller gave. Returns the reservation id.",
      args: CreateReservationArgs,
      run: createReservation,
      // It adds one reservation whose every field comes from CreateReservationArgs, parsed with the
      // state's own field schemas (plus a seeded id and "confirmed"); the slot-count test checks every
      // accepted write against the full state schema.
      writesValidState: true,
    },
    cancel_reservation: {
      kind: "write",
      effect: "cancel",
      entity: "reservation",
      description: "Cancel an existing reservation by its id. Only reservations the caller is verified for can be cancelled.",
      args: CancelReservationArgs,
      run: cancelReservation,
    },
  },
  view: restaurantView,
  vocabulary: RESTAURANT_VOCABULARY,
  // Who may read which reservation: the caller's verified ones, as cancel_reservation enforces it. A
  // reservation made during the call is the caller's own (it is not among the records at the start).
  access: {
    records: (state) => state.reservations,
    readable: (state, id) => state.caller.authorized_reservation_ids.includes(id),
  },
  invariants: {
    // Reservations are keyed by id, so ids are unique exactly when every entry carries its own key.
    reservation_ids_unique: (state, change) => {
      for (const id of touchedReservationIds(state, change)) {
        const r = state.reservations[id];
        if (r && r.id !== id) return `reservations["${id}"] carries id "${r.id}": two reservations would share an id`;
      }
      return true;
    },
    // Cancelled bookings are history; only confirmed ones have to fit the restaurant.
    party_size_within_capacity: (state, change) => {
      const max = state.capacity.max_party_size;
      for (const id of touchedReservationIds(state, change)) {
        const r = state.reservations[id];
        if (r && r.status === "confirmed" && r.party_size !== null && r.party_size > max) {
          return `reservation ${id} is confirmed for ${r.party_size} guests; the maximum party size is ${max}`;
        }
      }
      return true;
    },
    no_overbooking: noOverbooking,
  },
});

/**
 * The flat projection expectations are written against (restaurant contract, "Flat view").
 * `reservation_id` names the reservation the call acted on: the one it created, or else the one it
 * cancelled (the reference harness's expected states write a cancellation as `{reservation_id, cancelled}`);
 * `cancelled_reservation_id` names only a cancelled one. `reservations` lists every reservation with its
 * `reservation_id` and `cancelled` flag (it stands in for the state's map of the same name when an
 * expectation is matched against state and view together).
 */
export function restaurantView(final: RestaurantState, initial: RestaurantState) {
  let created: Reservation | undefined;
  let cancelledId: string | null = null;
  let confirmed = 0;
  for (const [id, r] of Object.entries(final.reservations)) {
    const before = Object.hasOwn(initial.reservations, id) ? initial.reservations[id] : undefined;
    if (!before) created = r; // insertion order: the last one seen is the last one created
    else if (before.status === "confirmed" && r.status === "cancelled") cancelledId = id;
    if (r.status === "confirmed") confirmed++;
  }
  return {
    reservation_created: created !== undefined,
    guest_name: created?.guest_name ?? null,
    date: created?.date ?? null,
    time: created?.time ?? null,
    party_size: created?.party_size ?? null,
    seating: created?.seating ?? null,
    reservation_id: created?.id ?? cancelledId,
    cancelled: cancelledId !== null,
    cancelled_reservation_id: cancelledId,
    reservation_count: confirmed,
    // Every reservation as a list, in the order the state holds them (a scenario's own order first): the
    // reference harness's expected states name reservations this way, `{reservation_id, cancelled}`.
    reservations: Object.values(final.reservations).map((r) => ({
      reservation_id: r.id,
      guest_name: r.guest_name,
      date: r.date,
      time: r.time,
      party_size: r.party_size,
      seating: r.seating,
      status: r.status,
      cancelled: r.status === "cancelled",
    })),
  };
}
