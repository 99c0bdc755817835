import { createWorld, matchesSubset, toolDeclarations, WorldSetupError, type World } from "crashlab/alpha";
import { describe, expect, it } from "vitest";
import {
  countSlots,
  DEFAULT_AVAILABILITY_OVERRIDES,
  RestaurantState,
  restaurantWorld,
  slotCounts,
} from "../crashlab/worlds/restaurant";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";

const cause = { trial: "booking-1#0" };

function restaurant(initialState: Record<string, unknown> = {}, seed = 11): World<RestaurantState> {
  return createWorld(restaurantWorld, { seed, trial: "booking-1#0", initialState, now: () => 0 });
}

const MAYA = { guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 };

describe("restaurant world: check_availability", () => {
  it("reports a free table and echoes the request", () => {
    const world = restaurant();
    const out = world.perform("check_availability", { date: "2026-08-06", time: "19:00", party_size: 2 }, cause);
    expect(out).toEqual({
      outcome: "ok",
      result: { available: true, date: "2026-08-06", time: "19:00", party_size: 2, seating: null },
      seq: 1,
    });
    expect(world.events()[0]).toMatchObject({ kind: "read", patches: [] });
  });

  it("says why a slot is not available, without changing anything", () => {
    const world = restaurant();
    const check = (args: Record<string, unknown>) => world.perform("check_availability", args, cause).result;
    expect(check({ date: "2026-08-07", time: "21:00", party_size: 6 })).toEqual({
      available: false,
      date: "2026-08-07",
      time: "21:00",
      party_size: 6,
      seating: null,
      reason: "slot_unavailable",
    });
    expect(check({ date: "2026-08-07", time: "21:00", party_size: 5 })).toMatchObject({ available: true });
    expect(check({ date: "2026-08-07", time: "20:30", party_size: 6 })).toMatchObject({ available: true });
    expect(check({ date: "2026-08-06", time: "22:00", party_size: 2 })).toMatchObject({ available: false, reason: "outside_hours" });
    expect(check({ date: "2026-08-06", time: "12:00", party_size: 13, seating: "bar" })).toMatchObject({
      available: false,
      seating: "bar",
      reason: "invalid_party_size",
    });
    expect(world.diff()).toEqual([]);
  });
});

describe("restaurant world: create_reservation", () => {
  it("creates a confirmed reservation with a seeded id", () => {
    const world = restaurant();
    const out = world.perform("create_reservation", { ...MAYA, seating: "outdoor" }, cause);
    expect(out.outcome).toBe("ok");
    const result = out.result as { reservation_id: string };
    expect(result.reservation_id).toMatch(/^R-[0-9A-F]{6}$/);
    expect(result).toEqual({
      reservation_id: result.reservation_id,
      status: "confirmed",
      guest_name: "Maya",
      date: "2026-08-06",
      time: "19:00",
      party_size: 2,
      seating: "outdoor",
    });
    expect(world.state().reservations[result.reservation_id]).toEqual({
      id: result.reservation_id,
      guest_name: "Maya",
      date: "2026-08-06",
      time: "19:00",
      party_size: 2,
      seating: "outdoor",
      status: "confirmed",
    });
    expect(world.events()[0]!.patches).toEqual([
      { op: "add", path: `/reservations/${result.reservation_id}`, value: world.state().reservations[result.reservation_id] },
    ]);
    // Same seed and trial, same id; another seed, another id.
    expect(restaurant().perform("create_reservation", MAYA, cause).result).toMatchObject({ reservation_id: result.reservation_id });
    expect(restaurant({}, 12).perform("create_reservation", MAYA, cause).result).not.toMatchObject({
      reservation_id: result.reservation_id,
    });
  });

  it("records seating null when none was asked for, and trims the guest name", () => {
    const world = restaurant();
    const out = world.perform("create_reservation", { ...MAYA, guest_name: "  Maya Chen " }, cause);
    expect(out.result).toMatchObject({ guest_name: "Maya Chen", seating: null });
  });

  it("accepts the first and last start times of the day and refuses outside_hours otherwise", () => {
    const world = restaurant();
    for (const time of ["11:00", "21:59"]) {
      expect(world.perform("create_reservation", { ...MAYA, time }, cause).outcome).toBe("ok");
    }
    for (const time of ["10:59", "22:00", "23:30", "00:00"]) {
      const out = world.perform("create_reservation", { ...MAYA, time }, cause);
      expect(out.error?.code).toBe("outside_hours");
      expect(out.error?.message).toContain("11:00 until 22:00");
    }
    expect(Object.keys(world.state().reservations)).toHaveLength(2);
  });

  it("refuses the 2026-08-07 21:00 party of six (slot_unavailable) and leaves the state unchanged", () => {
    const world = restaurant();
    const before = world.state();
    const out = world.perform("create_reservation", { guest_name: "Jordan", date: "2026-08-07", time: "21:00", party_size: 6 }, cause);
    expect(out).toMatchObject({ outcome: "error", error: { code: "slot_unavailable" } });
    expect(out.error?.details).toEqual({ date: "2026-08-07", time: "21:00", party_size: 6, seating: null });
    expect(world.state()).toBe(before);
    expect(world.events()[0]).toMatchObject({ kind: "write", outcome: "error", patches: [] });
    // Smaller parties still fit that slot; the override has a minimum party size.
    expect(world.perform("create_reservation", { guest_name: "Sam", date: "2026-08-07", time: "21:00", party_size: 5 }, cause).outcome).toBe("ok");
  });

  it("applies a seating-specific override only to that seating", () => {
    const world = restaurant({
      availability_overrides: [{ date: "2026-08-06", time: "19:00", seating: "outdoor", available: false }],
    });
    expect(world.perform("create_reservation", { ...MAYA, seating: "outdoor" }, cause).error?.code).toBe("slot_unavailable");
    expect(world.perform("create_reservation", { ...MAYA, seating: "indoor" }, cause).outcome).toBe("ok");
    expect(world.perform("create_reservation", MAYA, cause).outcome).toBe("ok");
  });

  it("refuses parties above the maximum (invalid_party_size) and accepts the maximum", () => {
    const world = restaurant();
    expect(world.perform("create_reservation", { ...MAYA, party_size: 12 }, cause).outcome).toBe("ok");
    const out = world.perform("create_reservation", { ...MAYA, party_size: 13 }, cause);
    expect(out.error?.code).toBe("invalid_party_size");
    expect(out.error?.message).toContain("up to 12");
    const bigger = restaurant({ capacity: { max_party_size: 20 } });
    expect(bigger.perform("create_reservation", { ...MAYA, party_size: 13 }, cause).outcome).toBe("ok");
  });

  it("fills a slot at tables_per_slot confirmed reservations; cancelled ones free a table", () => {
    const world = restaurant({
      reservations: [
        { reservation_id: "R-OLD001", guest_name: "Ann", date: "2026-08-06", time: "19:00", party_size: 2 },
        { reservation_id: "R-OLD002", guest_name: "Ben", date: "2026-08-06", time: "19:00", party_size: 2, status: "cancelled" },
      ],
    });
    for (const guest_name of ["Cai", "Dee", "Eve"]) {
      expect(world.perform("create_reservation", { ...MAYA, guest_name }, cause).outcome).toBe("ok");
    }
    const full = world.perform("create_reservation", { ...MAYA, guest_name: "Fay" }, cause);
    expect(full.error?.code).toBe("slot_unavailable");
    expect(full.error?.message).toContain("fully booked");
    expect(world.perform("check_availability", { date: "2026-08-06", time: "19:00", party_size: 1 }, cause).result).toMatchObject({
      available: false,
      reason: "slot_unavailable",
    });
    // Another time on the same day is unaffected.
    expect(world.perform("create_reservation", { ...MAYA, time: "19:30" }, cause).outcome).toBe("ok");
    const single = restaurant({ capacity: { tables_per_slot: 1 } });
    expect(single.perform("create_reservation", MAYA, cause).outcome).toBe("ok");
    expect(single.perform("create_reservation", MAYA, cause).error?.code).toBe("slot_unavailable");
  });

  it("rejects badly formed arguments as invalid_arguments, naming the field", () => {
    const world = restaurant();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...MAYA, date: "2026-02-30" }, "date: not a real calendar date"],
      [{ ...MAYA, date: "08/07/2026" }, "date: expected a date as YYYY-MM-DD"],
      [{ ...MAYA, date: "2026-8-7" }, "date: expected a date as YYYY-MM-DD"],
      [{ ...MAYA, time: "7pm" }, "time: expected a 24-hour time as HH:MM"],
      [{ ...MAYA, time: "24:00" }, "time: expected a 24-hour time as HH:MM"],
      [{ ...MAYA, party_size: 0 }, "party_size: "],
      [{ ...MAYA, party_size: 2.5 }, "party_size: "],
      [{ ...MAYA, party_size: "2" }, "party_size: "],
      [{ ...MAYA, guest_name: "" }, "guest_name: must not be empty"],
      [{ ...MAYA, guest_name: "   " }, "guest_name: must not be empty"],
      [{ ...MAYA, seating: "rooftop" }, "seating: "],
      [{ ...MAYA, table: 4 }, "table: unknown field"],
      [{ date: "2026-08-06", time: "19:00", party_size: 2 }, "guest_name: "],
    ];
    for (const [args, expected] of cases) {
      const out = world.perform("create_reservation", args, cause);
      expect(out.error?.code, JSON.stringify(args)).toBe("invalid_arguments");
      expect(out.error?.message, JSON.stringify(args)).toContain(expected);
    }
    // One clear message for a malformed date, not a second "not a real date".
    expect(world.perform("create_reservation", { ...MAYA, date: "2026-8-7" }, cause).error?.message).not.toContain("real calendar");
    expect(world.events()).toHaveLength(cases.length + 1);
    expect(world.events()[2]!.args).toEqual({ ...MAYA, date: "2026-8-7" });
    expect(world.diff()).toEqual([]);
  });
});

describe("restaurant world: cancel_reservation", () => {
  const booked = () =>
    restaurant({
      reservations: [
        { reservation_id: "R-100001", guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 },
        { id: "R-100002", guest_name: "Noor", date: "2026-08-09", time: "18:00", party_size: 4 },
        { reservation_id: "R-100003", guest_name: "Maya", date: "2026-07-01", time: "12:00", party_size: 2, status: "cancelled" },
      ],
      authorized_reservation_ids: ["R-100001", "R-100003", "R-GHOST1"],
    });

  it("cancels a reservation the caller is verified for", () => {
    const world = booked();
    const out = world.perform("cancel_reservation", { reservation_id: "R-100001" }, cause);
    expect(out).toEqual({ outcome: "ok", result: { reservation_id: "R-100001", status: "cancelled" }, seq: 1 });
    expect(world.state().reservations["R-100001"]!.status).toBe("cancelled");
    expect(world.diff()).toEqual([{ op: "replace", path: "/reservations/R-100001/status", value: "cancelled" }]);
    expect(world.events()[0]!.patches).toEqual([{ op: "replace", path: "/reservations/R-100001/status", value: "cancelled" }]);
  });

  it("refuses not_found, not_authorized (state unchanged) and already_cancelled", () => {
    const world = booked();
    const before = world.state();
    expect(world.perform("cancel_reservation", { reservation_id: "R-999999" }, cause).error?.code).toBe("not_found");
    expect(world.perform("cancel_reservation", { reservation_id: "R-GHOST1" }, cause).error?.code).toBe("not_found");
    const denied = world.perform("cancel_reservation", { reservation_id: "R-100002" }, cause);
    expect(denied.error).toEqual({
      code: "not_authorized",
      message: "This caller is not verified for reservation R-100002.",
      details: { reservation_id: "R-100002" },
    });
    expect(world.perform("cancel_reservation", { reservation_id: "R-100003" }, cause).error?.code).toBe("already_cancelled");
    expect(world.state()).toBe(before);
    expect(world.diff()).toEqual([]);
    expect(world.events().every((e) => e.outcome === "error" && e.patches.length === 0)).toBe(true);
    expect(world.perform("cancel_reservation", { reservation_id: "" }, cause).error?.code).toBe("invalid_arguments");
  });

  it("does not reveal an unauthorized reservation's status", () => {
    const world = restaurant({
      reservations: [{ reservation_id: "R-200001", guest_name: "Lee", date: "2026-08-06", time: "19:00", party_size: 2, status: "cancelled" }],
    });
    expect(world.perform("cancel_reservation", { reservation_id: "R-200001" }, cause).error?.code).toBe("not_authorized");
  });
});

describe("restaurant world: portable initial state", () => {
  it("fills every default from {}", () => {
    expect(restaurant().initial).toEqual({
      restaurant: {
        name: "Harbor Table",
        address: "14 Quay Street",
        phone: "555-0142",
        hours: { open: "11:00", close: "22:00" },
        parking: RESTAURANT_FACTS.parking,
      },
      capacity: { tables_per_slot: 4, max_party_size: 12 },
      availability_overrides: [{ date: "2026-08-07", time: "21:00", min_party_size: 6, available: false }],
      reservations: {},
      caller: { authorized_reservation_ids: [] },
    });
  });

  it("maps reservations, ids, overrides, capacity and restaurant fields", () => {
    const world = restaurant({
      reservations: [
        { reservation_id: "R-300001", guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2, seating: "bar" },
        { id: "R-300002", reservation_id: "R-300002", guest_name: "Noor", date: "2026-08-09", time: "18:00", party_size: 4, status: "cancelled" },
      ],
      authorized_reservation_ids: ["R-300001"],
      availability_overrides: [{ date: "2026-12-24", time: "19:00", available: false }],
      capacity: { tables_per_slot: 2 },
      restaurant: { hours: { close: "23:00" }, phone: "555-0199" },
    });
    const s = world.initial;
    expect(s.reservations).toEqual({
      "R-300001": { id: "R-300001", guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2, seating: "bar", status: "confirmed" },
      "R-300002": { id: "R-300002", guest_name: "Noor", date: "2026-08-09", time: "18:00", party_size: 4, seating: null, status: "cancelled" },
    });
    expect(s.caller.authorized_reservation_ids).toEqual(["R-300001"]);
    expect(s.availability_overrides).toEqual([
      ...DEFAULT_AVAILABILITY_OVERRIDES,
      { date: "2026-12-24", time: "19:00", min_party_size: 1, available: false },
    ]);
    expect(s.capacity).toEqual({ tables_per_slot: 2, max_party_size: 12 });
    expect(s.restaurant).toMatchObject({ name: "Harbor Table", phone: "555-0199", hours: { open: "11:00", close: "23:00" } });
    expect(world.perform("create_reservation", { ...MAYA, time: "22:30" }, cause).outcome).toBe("ok");
  });

  const setupError = (initialState: Record<string, unknown>): WorldSetupError => {
    try {
      restaurant(initialState);
    } catch (e) {
      expect(e).toBeInstanceOf(WorldSetupError);
      return e as WorldSetupError;
    }
    throw new Error("expected a WorldSetupError");
  };

  it("rejects unknown fields, naming each one", () => {
    expect(setupError({ tables: 3 }).message).toContain("application.initial_state.tables: unknown field");
    expect(
      setupError({ reservations: [{ reservation_id: "R-1", guest_nam: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 }] })
        .message,
    ).toContain("application.initial_state.reservations[0].guest_nam: unknown field");
    expect(setupError({ capacity: { tables: 3 } }).message).toContain("application.initial_state.capacity.tables: unknown field");
    expect(setupError({ restaurant: { hours: { open: "10:00", lunch: true } } }).message).toContain(
      "application.initial_state.restaurant.hours.lunch: unknown field",
    );
  });

  it("rejects bad values, missing and duplicate ids, naming the path", () => {
    const base = { guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 };
    expect(setupError({ reservations: [base] }).message).toContain("application.initial_state.reservations[0].reservation_id: required");
    expect(setupError({ reservations: [{ ...base, id: "R-1", reservation_id: "R-2" }] }).message).toContain(
      "application.initial_state.reservations[0].id: differs",
    );
    const dup = setupError({ reservations: [{ ...base, id: "R-1" }, { ...base, reservation_id: "R-1" }] });
    expect(dup.message).toContain('application.initial_state.reservations[1].reservation_id: duplicate reservation id "R-1"');
    expect(dup.issues).toHaveLength(1);
    expect(setupError({ reservations: [{ ...base, id: "R-1", date: "2026-13-01" }] }).message).toContain(
      "application.initial_state.reservations[0].date: not a real calendar date",
    );
    expect(setupError({ availability_overrides: [{ date: "2026-08-06", time: "7pm", available: false }] }).message).toContain(
      "application.initial_state.availability_overrides[0].time",
    );
    expect(setupError({ authorized_reservation_ids: "R-1" }).message).toContain("application.initial_state.authorized_reservation_ids");
    expect(setupError({ restaurant: { hours: { open: "23:00" } } }).message).toMatch(
      /restaurant\.hours: `open` must be earlier than `close`/,
    );
  });

  it("reads the public reference harness's shapes: a reservation known by id and name, `cancelled` for `status`", () => {
    const world = restaurant({
      reservations: [
        { reservation_id: "R-100", guest_name: "Maya", cancelled: false },
        { reservation_id: "R-101", guest_name: "Leo", cancelled: true },
      ],
      authorized_reservation_ids: ["R-100", "R-101"],
    });
    expect(world.initial.reservations["R-100"]).toEqual({ id: "R-100", guest_name: "Maya", date: null, time: null, party_size: null, seating: null, status: "confirmed" });
    expect(world.initial.reservations["R-101"]!.status).toBe("cancelled");
    // Not on file means it holds no table; it can still be cancelled, once.
    expect(countSlots(world.initial.reservations).size).toBe(0);
    expect(world.perform("cancel_reservation", { reservation_id: "R-100" }, cause).outcome).toBe("ok");
    expect(world.perform("cancel_reservation", { reservation_id: "R-101" }, cause).error?.code).toBe("already_cancelled");
    // The reference writes a cancellation's expected state as {reservation_id, cancelled}, and lists
    // reservations as [{reservation_id, cancelled}] in the scenario's order.
    expect(world.view()).toMatchObject({ reservation_created: false, reservation_id: "R-100", cancelled: true, cancelled_reservation_id: "R-100" });
    expect(matchesSubset({ reservations: [{ reservation_id: "R-100", cancelled: true }, { reservation_id: "R-101", cancelled: true }] }, { ...world.state(), ...world.view() })).toBe(true);
  });

  it("refuses contradictions in those shapes, naming the field", () => {
    const base = { reservation_id: "R-1", guest_name: "Maya" };
    expect(setupError({ reservations: [{ ...base, status: "confirmed", cancelled: true }] }).message).toContain(
      'application.initial_state.reservations[0].cancelled: contradicts status "confirmed"',
    );
    expect(setupError({ reservations: [{ ...base, date: "2026-08-06" }] }).message).toContain("application.initial_state.reservations[0].time: required with `date`");
    expect(setupError({ reservations: [{ ...base, cancelled: "no" }] }).message).toContain("application.initial_state.reservations[0].cancelled");
  });

  it("knows patio seating, apart from outdoor", () => {
    const world = restaurant();
    const out = world.perform("create_reservation", { ...MAYA, seating: "patio" }, cause);
    expect(out.outcome).toBe("ok");
    expect(world.view()).toMatchObject({ seating: "patio" });
    expect(RESTAURANT_FACTS.seating).toEqual(["indoor", "outdoor", "patio", "bar"]);
  });

  it("rejects an initial state that breaks an invariant", () => {
    const error = setupError({
      reservations: [{ id: "R-1", guest_name: "Big group", date: "2026-08-06", time: "19:00", party_size: 14 }],
    });
    expect(error.message).toContain('breaks invariant "party_size_within_capacity"');
    expect(error.message).toContain("R-1 is confirmed for 14 guests");
  });
});

describe("restaurant world: invariants", () => {
  it("holds ids unique by key and party sizes within capacity", () => {
    const world = restaurant();
    const { reservation_ids_unique, party_size_within_capacity } = restaurantWorld.invariants!;
    const s = world.initial;
    const entry = { id: "R-2", guest_name: "A", date: "2026-08-06", time: "19:00", party_size: 2, seating: null, status: "confirmed" as const };
    expect(reservation_ids_unique!({ ...s, reservations: { "R-2": entry } })).toBe(true);
    expect(reservation_ids_unique!({ ...s, reservations: { "R-1": entry, "R-2": entry } })).toMatch(/share an id/);
    const big = { ...entry, party_size: 13 };
    expect(party_size_within_capacity!({ ...s, reservations: { "R-2": big } })).toMatch(/maximum party size is 12/);
    expect(party_size_within_capacity!({ ...s, reservations: { "R-2": { ...big, status: "cancelled" } } })).toBe(true);
    // With a change, only the touched reservations are checked.
    const state = { ...s, reservations: { "R-1": big, "R-2": entry } };
    const change = { previous: s, patches: [{ op: "add" as const, path: "/reservations/R-2", value: entry }] };
    expect(party_size_within_capacity!(state, change)).toBe(true);
    expect(party_size_within_capacity!(state, { ...change, patches: [{ op: "replace", path: "/capacity/max_party_size", value: 12 }] })).toMatch(
      /R-1/,
    );
  });
});

describe("restaurant world: flat view", () => {
  it("shows nothing created or cancelled on an untouched world", () => {
    const world = restaurant({
      reservations: [{ id: "R-1", guest_name: "Ann", date: "2026-08-06", time: "19:00", party_size: 2 }],
    });
    world.perform("check_availability", { date: "2026-08-06", time: "19:00", party_size: 2 }, cause);
    expect(world.view()).toEqual({
      reservation_created: false,
      guest_name: null,
      date: null,
      time: null,
      party_size: null,
      seating: null,
      reservation_id: null,
      cancelled: false,
      cancelled_reservation_id: null,
      reservation_count: 1,
      reservations: [{ reservation_id: "R-1", guest_name: "Ann", date: "2026-08-06", time: "19:00", party_size: 2, seating: null, status: "confirmed", cancelled: false }],
    });
  });

  it("describes the last reservation created", () => {
    const world = restaurant();
    world.perform("create_reservation", { guest_name: "Ann", date: "2026-08-05", time: "12:00", party_size: 3 }, cause);
    const id = (world.perform("create_reservation", { ...MAYA, seating: "indoor" }, cause).result as { reservation_id: string }).reservation_id;
    expect(world.view()).toEqual({
      reservation_created: true,
      guest_name: "Maya",
      date: "2026-08-06",
      time: "19:00",
      party_size: 2,
      seating: "indoor",
      reservation_id: id,
      cancelled: false,
      cancelled_reservation_id: null,
      reservation_count: 2,
      reservations: [expect.objectContaining({ guest_name: "Ann", cancelled: false }), expect.objectContaining({ reservation_id: id, guest_name: "Maya", seating: "indoor" })],
    });
    // A portable expected.state matches as a subset of {...final, ...view}.
    expect({ ...world.state(), ...world.view() }).toMatchObject({ reservation_created: true, guest_name: "Maya", date: "2026-08-06" });
  });

  it("describes a cancellation of a reservation that was confirmed at the start", () => {
    const world = restaurant({
      reservations: [
        { id: "R-1", guest_name: "Ann", date: "2026-08-06", time: "19:00", party_size: 2 },
        { id: "R-2", guest_name: "Ben", date: "2026-08-06", time: "20:00", party_size: 2 },
      ],
      authorized_reservation_ids: ["R-2"],
    });
    world.perform("cancel_reservation", { reservation_id: "R-2" }, cause);
    expect(world.view()).toMatchObject({
      reservation_created: false,
      cancelled: true,
      cancelled_reservation_id: "R-2",
      reservation_count: 1,
    });
  });
});

describe("restaurant world: tool declarations", () => {
  it("declares the same tools and arguments as the restaurant backend", () => {
    const declared = toolDeclarations(restaurantWorld);
    expect(declared.map((t) => t.name)).toEqual(RESTAURANT_TOOLS.map((t) => t.name));
    for (const tool of declared) {
      const backend = RESTAURANT_TOOLS.find((t) => t.name === tool.name)!;
      const params = tool.parameters as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
      const expected = backend.parameters as typeof params;
      expect(Object.keys(params.properties).sort(), tool.name).toEqual(Object.keys(expected.properties).sort());
      expect([...params.required].sort(), tool.name).toEqual([...expected.required].sort());
      expect(params.additionalProperties).toBe(false);
    }
  });
});

describe("restaurant world: slot counts", () => {
  // Seeded generator (mulberry32) so a failing sequence can be replayed from its seed.
  function generator(seed: number) {
    let a = seed >>> 0;
    const next = () => {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const int = (n: number) => Math.floor(next() * n);
    return { int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
  }
  const sorted = (counts: ReadonlyMap<string, number>) => [...counts].sort(([a], [b]) => a.localeCompare(b));
  const DATES = ["2026-08-06", "2026-08-07", "2026-08-08"];
  const TIMES = ["19:00", "19:30"];

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`stay equal to a full count over random creates and cancels, back and forth (#${seed})`, () => {
      // The ids a world with this seed draws, in order: authorize them all so cancels can succeed.
      const rehearsal = restaurant({}, seed);
      const drawn = Array.from({ length: 150 }, (_, i) => {
        const out = rehearsal.perform("create_reservation", { ...MAYA, date: `2027-01-${String((i % 28) + 1).padStart(2, "0")}`, time: `${11 + (i % 10)}:00` }, cause);
        return (out.result as { reservation_id: string }).reservation_id;
      });
      const world = restaurant(
        {
          capacity: { tables_per_slot: 3 },
          reservations: [
            { id: "S-1", guest_name: "Ann", date: DATES[0], time: TIMES[0], party_size: 2 },
            { id: "S-2", guest_name: "Ben", date: DATES[0], time: TIMES[0], party_size: 2, status: "cancelled" },
            { id: "S-3", guest_name: "Cai", date: DATES[1], time: TIMES[1], party_size: 4 },
          ],
          authorized_reservation_ids: ["S-1", "S-2", "S-3", ...drawn],
        },
        seed,
      );
      const g = generator(seed);
      const history = [world.state()];
      let created = 0;
      let cancelled = 0;
      for (let step = 0; step < 250; step++) {
        const ids = Object.keys(world.state().reservations);
        const slot = { date: g.pick(DATES), time: g.pick(TIMES) };
        const choice = g.int(5);
        const out =
          choice < 2
            ? world.perform("create_reservation", { ...MAYA, ...slot, party_size: 1 + g.int(4) }, cause)
            : choice < 4
              ? world.perform("cancel_reservation", { reservation_id: ids.length > 0 ? g.pick(ids) : "S-1" }, cause)
              : world.perform("check_availability", { ...slot, party_size: 2 }, cause);
        if (out.outcome === "ok" && choice < 2) created++;
        if (out.outcome === "ok" && choice >= 2 && choice < 4) cancelled++;
        const state = world.state();
        expect(sorted(slotCounts(state.reservations)), `step ${step}`).toEqual(sorted(countSlots(state.reservations)));
        // Every accepted write leaves a state that passes the full schema.
        expect(RestaurantState.safeParse(state).success).toBe(true);
        if (state !== history.at(-1)) history.push(state);
      }
      expect(created).toBeGreaterThan(20);
      expect(cancelled).toBeGreaterThan(20);
      // Earlier states keep their own counts: reading them moves the counts back along the lineage and forth.
      for (let k = 0; k < 40; k++) {
        const state = g.pick(history);
        expect(sorted(slotCounts(state.reservations))).toEqual(sorted(countSlots(state.reservations)));
      }
      // No slot was booked past its tables by a write.
      for (const [, n] of slotCounts(world.state().reservations)) expect(n).toBeLessThanOrEqual(3);
    });
  }

  it("no_overbooking rolls back a write that books a full slot, and leaves the counts before it intact", () => {
    const { no_overbooking } = restaurantWorld.invariants!;
    const world = restaurant({
      capacity: { tables_per_slot: 1 },
      reservations: [
        { id: "R-1", guest_name: "Ann", date: "2026-08-06", time: "19:00", party_size: 2 },
        { id: "R-2", guest_name: "Ben", date: "2026-08-06", time: "19:00", party_size: 2 },
      ],
    });
    const s = world.initial;
    // A scenario may start over capacity; only writes are held to it.
    expect(no_overbooking!(s)).toBe(true);
    expect([...slotCounts(s.reservations)]).toEqual([["2026-08-06 19:00", 2]]);
    const extra = { id: "R-3", guest_name: "Cai", date: "2026-08-06", time: "19:00", party_size: 2, seating: null, status: "confirmed" as const };
    const next = { ...s, reservations: { ...s.reservations, "R-3": extra } };
    const add = { op: "add" as const, path: "/reservations/R-3", value: extra };
    expect(no_overbooking!(next, { previous: s, patches: [add] })).toBe(
      "slot 2026-08-06 19:00 would hold 3 confirmed reservations; tables_per_slot is 1",
    );
    expect([...slotCounts(s.reservations)]).toEqual([["2026-08-06 19:00", 2]]);
    // Another slot, or a cancelled booking, is fine (a reservation touched by two patches counts once).
    const elsewhere = { ...extra, time: "20:00" };
    const twoPatches = [{ ...add, value: elsewhere }, { op: "replace" as const, path: "/reservations/R-3/party_size", value: 2 }];
    expect(no_overbooking!({ ...s, reservations: { ...s.reservations, "R-3": elsewhere } }, { previous: s, patches: twoPatches })).toBe(true);
    const cancelledExtra = { ...extra, status: "cancelled" as const };
    expect(
      no_overbooking!({ ...s, reservations: { ...s.reservations, "R-3": cancelledExtra } }, { previous: s, patches: [{ ...add, value: cancelledExtra }] }),
    ).toBe(true);
    // Replacing the whole record is checked too (by a full count).
    const replaced = { ...s, reservations: { ...s.reservations, "R-3": extra } };
    expect(no_overbooking!(replaced, { previous: s, patches: [{ op: "replace", path: "/reservations", value: replaced.reservations }] })).toMatch(
      /would hold 3/,
    );
    expect(world.perform("create_reservation", MAYA, cause).error?.code).toBe("slot_unavailable");
  });
});
