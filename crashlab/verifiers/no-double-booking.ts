import { defineVerifier, normalizeText, type WorldEventRecord } from "crashlab/alpha";

/*
 * No double booking: one guest must not end up holding two reservations for the same date and time.
 * Reads only recorded data (the world's final state and its events), never a live world.
 */

/** One guest holding more than one reservation for the same slot. */
export interface DoubleBooking {
  date: string;
  time: string;
  /** The guest's name as first recorded. */
  guest_name: string;
  /** Party sizes, in the order of reservation_ids (null when not recorded). */
  party_sizes: Array<number | null>;
  reservation_ids: string[];
  /** World events (seq) whose create_reservation made these reservations; empty when found only in the final state. */
  event_seqs: number[];
  /** `final_state`: confirmed together at the end; `events`: created twice in this trial (even if one was cancelled later). */
  found_in: Array<"final_state" | "events">;
}

interface Booking {
  id: string;
  guest_name: string;
  date: string;
  time: string;
  party_size: number | null;
  seq?: number | undefined;
}

/**
 * Slots where the same guest holds two confirmed reservations for one date+time in the final state, or
 * where this trial's successful `create_reservation` events made two reservations for one slot and guest.
 * Guest names are one guest when their `guestIdentity` is equal ("Maya.", "maya  " and "Máya" are one guest).
 */
export function findDoubleBookings(finalState: unknown, events: readonly WorldEventRecord[]): DoubleBooking[] {
  const found = new Map<string, DoubleBooking>();
  const report = (group: Booking[], source: "final_state" | "events") => {
    const first = group[0]!;
    const key = slotKey(first);
    let entry = found.get(key);
    if (!entry) {
      entry = {
        date: first.date,
        time: first.time,
        guest_name: first.guest_name,
        party_sizes: [],
        reservation_ids: [],
        event_seqs: [],
        found_in: [],
      };
      found.set(key, entry);
    }
    for (const b of group) {
      if (!entry.reservation_ids.includes(b.id)) {
        entry.reservation_ids.push(b.id);
        entry.party_sizes.push(b.party_size);
      }
      if (b.seq !== undefined && !entry.event_seqs.includes(b.seq)) entry.event_seqs.push(b.seq);
    }
    if (!entry.found_in.includes(source)) entry.found_in.push(source);
  };

  const created = createdBookings(events);
  for (const group of groupBySlot(confirmedBookings(finalState))) {
    // Point at the events that made them, when this trial made them.
    report(group.map((b) => ({ ...b, seq: created.find((c) => c.id === b.id)?.seq })), "final_state");
  }
  for (const group of groupBySlot(created)) report(group, "events");
  return [...found.values()];
}

function confirmedBookings(finalState: unknown): Booking[] {
  const reservations = asRecord(asRecord(finalState)?.reservations);
  if (!reservations) return [];
  const out: Booking[] = [];
  for (const [key, value] of Object.entries(reservations)) {
    const r = asRecord(value);
    if (!r || r.status !== "confirmed") continue;
    const booking = bookingOf(typeof r.id === "string" ? r.id : key, r);
    if (booking) out.push(booking);
  }
  return out;
}

function createdBookings(events: readonly WorldEventRecord[]): Booking[] {
  const out: Booking[] = [];
  for (const event of events) {
    if (event.operation !== "create_reservation" || event.outcome !== "ok") continue;
    const result = asRecord(event.result);
    if (!result || typeof result.reservation_id !== "string") continue;
    const booking = bookingOf(result.reservation_id, result);
    if (booking) out.push({ ...booking, seq: event.seq });
  }
  return out;
}

function bookingOf(id: string, r: Record<string, unknown>): Booking | undefined {
  const { guest_name, date, time, party_size } = r;
  if (typeof guest_name !== "string" || typeof date !== "string" || typeof time !== "string") return undefined;
  return { id, guest_name, date, time, party_size: typeof party_size === "number" ? party_size : null };
}

function groupBySlot(bookings: Booking[]): Booking[][] {
  const groups = new Map<string, Booking[]>();
  for (const b of bookings) {
    const key = slotKey(b);
    const group = groups.get(key);
    if (group) group.push(b);
    else groups.set(key, [b]);
  }
  return [...groups.values()].filter((g) => new Set(g.map((b) => b.id)).size > 1);
}

function slotKey(b: Booking): string {
  return JSON.stringify([b.date, b.time, guestIdentity(b.guest_name)]);
}

/**
 * The one normalization of a guest's name: accents dropped ("Máya" → "maya"), then the argument
 * matching's own text normalization (case folded, punctuation as spaces, whitespace collapsed: "Maya." →
 * "maya"), so a name that would match an expected argument is also the same guest here.
 */
export function guestIdentity(name: string): string {
  return normalizeText(name.normalize("NFKD").replace(/\p{M}+/gu, "").replace(/ß/g, "ss"));
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The package verifier: fails a trial in which a guest ends up (or was made) double-booked. */
export const noDoubleBooking = defineVerifier({
  id: "no_double_booking",
  version: "1.0",
  kind: "deterministic",
  description: "No guest holds two reservations for the same date and time, and no trial books one slot twice for a guest",
  required: true,
  assess({ record }) {
    const doubles = findDoubleBookings(record.world.final, record.world.events);
    if (doubles.length === 0) return { status: "passed", rationale: "no double booking", evidence_ids: [] };
    return {
      status: "failed",
      rationale: doubles.map((d) => `${d.guest_name} holds ${d.reservation_ids.join(" and ")} for ${d.date} ${d.time}`).join("; "),
      evidence_ids: doubles.flatMap((d) => d.event_seqs.map((seq) => `world.event.${seq}`)),
    };
  },
});
