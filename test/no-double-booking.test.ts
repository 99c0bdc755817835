import { createWorld } from "crashlab/alpha";
import { describe, expect, it } from "vitest";
import { findDoubleBookings, guestIdentity, noDoubleBooking } from "../crashlab/verifiers/no-double-booking";
import { restaurantWorld } from "../crashlab/worlds/restaurant";

const cause = { trial: "double#0" };
const SLOT = { date: "2026-08-06", time: "19:00" };

function restaurant(initialState: Record<string, unknown> = {}) {
  return createWorld(restaurantWorld, { seed: 3, trial: "double#0", initialState, now: () => 0 });
}

function book(world: ReturnType<typeof restaurant>, guest_name: string, slot = SLOT, party_size = 2): string {
  const out = world.perform("create_reservation", { guest_name, ...slot, party_size }, cause);
  expect(out.outcome).toBe("ok");
  return (out.result as { reservation_id: string }).reservation_id;
}

describe("findDoubleBookings", () => {
  it("finds one guest booked twice into one slot, in the final state and in the events", () => {
    const world = restaurant();
    const first = book(world, "Maya");
    book(world, "Noor");
    const second = book(world, "  maya ", SLOT, 3);
    expect(findDoubleBookings(world.state(), world.events())).toEqual([
      {
        date: "2026-08-06",
        time: "19:00",
        guest_name: "Maya",
        party_sizes: [2, 3],
        reservation_ids: [first, second],
        event_seqs: [1, 3],
        found_in: ["final_state", "events"],
      },
    ]);
  });

  it("still reports a duplicate creation that was cancelled later, from the events only", () => {
    // Ids depend only on seed and call order, so a rehearsal tells us the second id to authorize.
    const rehearsal = restaurant();
    book(rehearsal, "Maya");
    const secondId = book(rehearsal, "Maya");

    const world = restaurant({ authorized_reservation_ids: [secondId] });
    const first = book(world, "Maya");
    const second = book(world, "Maya");
    expect(second).toBe(secondId);
    expect(world.perform("cancel_reservation", { reservation_id: second }, cause).outcome).toBe("ok");
    expect(findDoubleBookings(world.state(), world.events())).toEqual([
      expect.objectContaining({ reservation_ids: [first, second], event_seqs: [1, 2], found_in: ["events"] }),
    ]);
  });

  it("reports a double booking already present in the final state without events", () => {
    const world = restaurant({
      reservations: [
        { id: "R-1", guest_name: "Maya", ...SLOT, party_size: 2 },
        { id: "R-2", guest_name: "MAYA", ...SLOT, party_size: 2 },
        { id: "R-3", guest_name: "Maya", ...SLOT, party_size: 2, status: "cancelled" },
      ],
    });
    expect(findDoubleBookings(world.state(), world.events())).toEqual([
      expect.objectContaining({ reservation_ids: ["R-1", "R-2"], event_seqs: [], found_in: ["final_state"] }),
    ]);
  });

  it("finds nothing for different guests, different times or refused attempts", () => {
    const world = restaurant();
    book(world, "Maya");
    book(world, "Noor");
    book(world, "Maya", { date: "2026-08-06", time: "19:30" });
    book(world, "Maya", { date: "2026-08-07", time: "19:00" });
    expect(world.perform("create_reservation", { guest_name: "Maya", ...SLOT, party_size: 40 }, cause).outcome).toBe("error");
    expect(findDoubleBookings(world.state(), world.events())).toEqual([]);
  });

  it("tolerates records without a restaurant state or events", () => {
    expect(findDoubleBookings(null, [])).toEqual([]);
    // A successful create_reservation whose result is not a booking is ignored.
    const odd = { seq: 1, at_ms: 0, operation: "create_reservation", kind: "write" as const, args: {}, outcome: "ok" as const, result: null, patches: [], cause: { trial: "t#1" } };
    expect(findDoubleBookings({ reservations: [] }, [odd, odd])).toEqual([]);
  });

  it("treats a guest's name as one identity whatever its case, spacing, punctuation or accents", () => {
    // Each spelling below books the 19:00 slot a second time next to "Maya": every one is the same guest.
    for (const again of ["Maya.", "maya", "MAYA", "  Maya ", "Máya", "MÁYA!", "Maya,", "Maya…"]) {
      const world = restaurant();
      const first = book(world, "Maya");
      const second = book(world, again, SLOT, 4);
      expect(findDoubleBookings(world.state(), world.events()), again).toEqual([
        { date: "2026-08-06", time: "19:00", guest_name: "Maya", party_sizes: [2, 4], reservation_ids: [first, second], event_seqs: [1, 2], found_in: ["final_state", "events"] },
      ]);
    }
    // Two-word names: accents, hyphens and stray punctuation fold; different people stay apart.
    const world = restaurant();
    book(world, "Jonah Reyes");
    book(world, "jónah  reyes.");
    book(world, "Jonah Reyes-Smith");
    book(world, "Jonas Reyes");
    expect(findDoubleBookings(world.state(), world.events()).map((d) => d.reservation_ids.length)).toEqual([2]);
  });

  it("guestIdentity: the normalization, with worked values", () => {
    expect(guestIdentity("Maya.")).toBe("maya");
    expect(guestIdentity("maya")).toBe("maya");
    expect(guestIdentity("Máya")).toBe("maya");
    expect(guestIdentity("  Zoë   Ångström ")).toBe("zoe angstrom");
    expect(guestIdentity("Mary-Jane O'Brien")).toBe("mary jane o brien");
    expect(guestIdentity("Mary Jane O Brien")).toBe("mary jane o brien");
    expect(guestIdentity("François Weiß")).toBe("francois weiss");
    expect(guestIdentity("Noor")).not.toBe(guestIdentity("Nora"));
  });

  it("the verifier fails the punctuated duplicate it used to miss, citing both creations", () => {
    const world = restaurant();
    const first = book(world, "Maya");
    const second = book(world, "Maya.");
    const record = { world: { final: world.state(), events: world.events() } };
    const verdict = noDoubleBooking.assess({ record, scenario: {} } as unknown as Parameters<typeof noDoubleBooking.assess>[0]);
    expect(verdict).toEqual({ status: "failed", rationale: `Maya holds ${first} and ${second} for 2026-08-06 19:00`, evidence_ids: ["world.event.1", "world.event.2"] });
  });
});
