import { defineWorld, OperationError, z } from "crashlab/alpha";
import { SHOP_FACTS } from "../facts";

/*
 * The shop's booking book as a world: its state, the operations the assistant's backend may call (they
 * become the tools), the rules that refuse a request, and the flat view expectations are written against.
 */

const Day = z.enum(SHOP_FACTS.days).describe("Day of the week, lower case, e.g. tuesday.");

const Booking = z.strictObject({ id: z.string(), customer_name: z.string().min(1), day: Day });

const ShopState = z.strictObject({
  services_per_day: z.int().positive(),
  full_days: z.array(Day),
  bookings: z.record(z.string(), Booking),
});
type ShopState = z.output<typeof ShopState>;

const CheckDayArgs = z.strictObject({ day: Day });
const BookServiceArgs = z.strictObject({ customer_name: z.string().trim().min(1).describe("The caller's name."), day: Day });

function freeOn(state: ShopState, day: string): boolean {
  const booked = Object.values(state.bookings).filter((b) => b.day === day).length;
  return !state.full_days.includes(day as ShopState["full_days"][number]) && booked < state.services_per_day;
}

export const shopWorld = defineWorld({
  name: "bike-shop",
  version: "1.0.0",
  state: ShopState,
  // A scenario's application.initial_state: anything left out takes these defaults.
  initialState: (portable) =>
    ShopState.parse({ services_per_day: 3, full_days: ["wednesday"], bookings: {}, ...portable }),
  operations: {
    check_day: {
      kind: "read",
      description: "Whether a service slot is free on a day. Read-only: books nothing.",
      args: CheckDayArgs,
      run: ({ state, args }) => ({ day: args.day, free: freeOn(state, args.day) }),
    },
    book_service: {
      kind: "write",
      description: "Book a bike service for the caller on a day. Call once per booking. Returns the booking id.",
      args: BookServiceArgs,
      run: ({ state, base, args, random }) => {
        if (!freeOn(base, args.day)) throw new OperationError("day_full", `No service slot is free on ${args.day}.`, { day: args.day });
        const id = random.id("B");
        state.bookings[id] = { id, customer_name: args.customer_name, day: args.day };
        return { booking_id: id, customer_name: args.customer_name, day: args.day };
      },
    },
  },
  invariants: {
    within_capacity: (state) =>
      SHOP_FACTS.days.every((day) => Object.values(state.bookings).filter((b) => b.day === day).length <= state.services_per_day) ||
      "a day holds more bookings than services_per_day",
  },
  // The flat view: `expected.state` in the dataset is matched against the final state merged with this.
  view: (final, initial) => {
    const created = Object.values(final.bookings).filter((b) => !(b.id in initial.bookings));
    const last = created.at(-1);
    return {
      booked: created.length > 0,
      customer_name: last?.customer_name ?? null,
      day: last?.day ?? null,
      booking_id: last?.id ?? null,
      booking_count: Object.keys(final.bookings).length,
    };
  },
});
