/**
 * World engine benchmarks on the restaurant world: `create_reservation` writes per second (argument
 * parsing, draft and patches, state check, invariants and the recorded event included) and `diff()` on a
 * world holding 10,000 reservations. Run alone with `pnpm tsx bench/world.bench.ts`.
 *
 * A write copies the reservations record it adds to (immutable state), so its cost grows with the
 * number of reservations: the write benchmarks start a fresh world every N writes and report N. A
 * restaurant trial holds a handful of reservations, which is the first row. The last write row is immer
 * alone doing the same insertion into the same frozen state, for comparison: the engine runs writes on
 * its own copy-on-write draft (src/core/world/draft.ts), which gives immer's state and patches for less.
 */
import { Immer, enablePatches, freeze } from "immer";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { createWorld, type World } from "crashlab/alpha";

export interface BenchResult {
  name: string;
  ops_per_s?: number;
  mean_ms?: number;
}

const cause = { trial: "bench#0" };

/** Distinct (date, time) slots spread over 2026–2027, so no slot reaches capacity before the world is replaced. */
function slots(count: number): Array<{ date: string; time: string }> {
  const out: Array<{ date: string; time: string }> = [];
  const times: string[] = [];
  for (let h = 11; h < 22; h++) times.push(`${h}:00`, `${h}:30`);
  for (let i = 0; out.length < count; i++) {
    const day = new Date(Date.UTC(2026, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);
    out.push({ date: day, time: times[Math.floor(i / 730) % times.length]! });
  }
  return out;
}

function startRestaurant(initialState: Record<string, unknown> = {}, seed = 1): World {
  return createWorld(restaurantWorld, { seed, trial: "bench#0", initialState, now: () => 0 });
}

/** One task run: a fresh world, then `writes` successful create_reservation calls. */
function writeBatch(writes: number, plan: Array<{ date: string; time: string }>, seed: number): void {
  const world = startRestaurant({}, seed);
  for (let i = 0; i < writes; i++) {
    const slot = plan[i]!;
    const out = world.perform("create_reservation", { guest_name: "Avery", date: slot.date, time: slot.time, party_size: 2 }, cause);
    if (out.outcome !== "ok") throw new Error(`benchmark write refused: ${JSON.stringify(out.error)}`);
  }
}

/**
 * The same insertion with immer alone (no parsing, checks or events). Ids are scattered six-hex-digit
 * keys like the world's: V8 gives every new key set its own hidden class, which is a real part of immer's cost.
 */
let immerSeed = 0x2545f491;
function immerOnlyBatch(immer: Immer, base: unknown, writes: number, plan: Array<{ date: string; time: string }>): void {
  let state = base as { reservations: Record<string, unknown> };
  for (let i = 0; i < writes; i++) {
    immerSeed ^= immerSeed << 13; // xorshift32
    immerSeed ^= immerSeed >>> 17;
    immerSeed ^= immerSeed << 5;
    const id = `R-${(immerSeed >>> 8).toString(16).toUpperCase().padStart(6, "0")}`;
    const slot = plan[i]!;
    [state] = immer.produceWithPatches(state, (draft) => {
      draft.reservations[id] = { id, guest_name: "Avery", ...slot, party_size: 2, seating: null, status: "confirmed" };
    });
  }
}

export async function benchWorld(): Promise<BenchResult[]> {
  const BATCHES = [10, 100, 1_000];
  const plan = slots(Math.max(...BATCHES));
  enablePatches();
  const immer = new Immer({ autoFreeze: true });
  const frozenEmpty = freeze(startRestaurant().initial, true);

  const writes = new Bench({ time: 1_000, iterations: 5, warmupTime: 500, warmupIterations: 5 });
  let seed = 0;
  for (const batch of BATCHES) {
    writes.add(`create_reservation, fresh world every ${batch.toLocaleString("en-US")} writes`, () => writeBatch(batch, plan, ++seed));
  }
  writes.add("immer produceWithPatches alone, 10 writes per state (comparison)", () => immerOnlyBatch(immer, frozenEmpty, 10, plan));
  await writes.run();

  // diff(): 10,000 reservations in the initial state, then one more write. Built after the write
  // benchmarks so its garbage does not land in their timings.
  const big = startRestaurant({
    reservations: slots(10_000).map((slot, i) => ({
      reservation_id: `B-${i.toString(16).toUpperCase().padStart(6, "0")}`,
      guest_name: `Guest ${i}`,
      ...slot,
      party_size: 2,
    })),
  });
  const extra = big.perform("create_reservation", { guest_name: "Avery", date: "2028-01-05", time: "19:00", party_size: 4 }, cause);
  if (extra.outcome !== "ok" || big.diff().length !== 1) throw new Error("diff benchmark setup failed");
  const diffs = new Bench({ time: 1_000, warmupTime: 200 });
  diffs.add("diff() with 10,000 reservations after one write", () => void big.diff());
  await diffs.run();

  return [...writes.tasks, ...diffs.tasks].map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`benchmark "${task.name}" did not complete (${result.state})`);
    const batch = /every ([\d,]+) writes/.exec(task.name)?.[1] ?? (task.name.startsWith("immer") ? "10" : undefined);
    if (batch) {
      const perWrite = result.latency.mean / Number(batch.replace(/,/g, ""));
      return { name: task.name, ops_per_s: round(1000 / perWrite, 0), mean_ms: round(perWrite, 5) };
    }
    return { name: task.name, ops_per_s: round(1000 / result.latency.mean), mean_ms: round(result.latency.mean, 3) };
  });
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchWorld());
}
