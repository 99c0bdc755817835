import { defineVerifier } from "crashlab/alpha";

/** A package verifier: a call books at most one service. It reads the world's causal events on the trial record. */
export const oneBookingPerCall = defineVerifier({
  id: "one_booking_per_call",
  version: "1.0",
  kind: "deterministic",
  description: "A call books at most one service",
  required: true,
  assess({ record }) {
    const bookings = record.world.events.filter((e) => e.operation === "book_service" && e.outcome === "ok");
    return {
      status: bookings.length <= 1 ? "passed" : "failed",
      rationale: bookings.length <= 1 ? `${bookings.length} booking(s)` : `${bookings.length} bookings in one call`,
      evidence_ids: bookings.map((e) => `world.event.${e.seq}`),
    };
  },
});
