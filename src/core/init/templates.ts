import { CRASHLAB_VERSION } from "../version";
import { SCAFFOLD_PINS } from "./versions";

/*
 * The files `crashlab init` writes: a small working evaluation package for a bike repair shop's phone
 * assistant. The domain lives in three files (world, policy, dataset); the rest is wiring a new domain
 * keeps. Paths are relative to the folder being initialised.
 */

/**
 * An import statement of a scaffold file. The files are text written into a user's package, so their
 * imports are built as strings: written out literally they would read as imports of this module.
 */
function importLine(names: string, module: string): string {
  return "import " + names + " from " + JSON.stringify(module) + ";";
}

export const PACKAGE_SCRIPTS = {
  eval: "crashlab run",
  typecheck: "tsc --noEmit",
} as const;

export const PACKAGE_DEPENDENCIES = {
  crashlab: CRASHLAB_VERSION,
  zod: SCAFFOLD_PINS.zod,
} as const;

export const PACKAGE_DEV_DEPENDENCIES = {
  typescript: SCAFFOLD_PINS.typescript,
  "@types/node": SCAFFOLD_PINS["@types/node"],
} as const;

/** A new package.json (when the folder has none). */
export function packageJson(name: string): string {
  return (
    JSON.stringify(
      {
        name,
        version: "0.0.0",
        private: true,
        type: "module",
        scripts: PACKAGE_SCRIPTS,
        dependencies: PACKAGE_DEPENDENCIES,
        devDependencies: PACKAGE_DEV_DEPENDENCIES,
      },
      null,
      2,
    ) + "\n"
  );
}

/** TypeScript settings that type-check a package: extensionless imports need `moduleResolution: Bundler`. */
export function tsconfigJson(include: string[]): string {
  return (
    JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          isolatedModules: true,
          resolveJsonModule: true,
          types: ["node"],
        },
        include,
      },
      null,
      2,
    ) + "\n"
  );
}

export const SCAFFOLD_FILES: Record<string, string> = {
  "crashlab/README.md": `# Evaluation package

\`crashlab init\` wrote this package: the phone assistant of a bike repair shop, evaluated against a small
world. It runs as it is:

\`\`\`sh
npx crashlab run                    # every case against the assistant over GPT-Live (offline simulator): exit 0
npx crashlab run --target faulty    # the same assistant with a deliberate defect: exit 1
npx tsc --noEmit                    # the package type-checks
\`\`\`

Its six cases come from three datasets, one per kind of input:

| file | cases | the caller |
|---|---|---|
| \`data/crawl.json\` | 4 CRAWL | each scenario's \`input.text\`, synthesized as speech |
| \`data/walk.json\` | 1 WALK | a recording, \`data/audio/shop_book_service_telephony.wav\`, replayed as it is |
| \`data/run.json\` | 1 RUN | a simulated caller in a whole phone call, following its agenda |

The recording was made by \`npx crashlab generate-audio\` from the booking scenario of \`data/crawl.json\`
(offline speech, then a phone line: the 300 Hz–3.4 kHz band, 8 kHz and μ-law). Replace it with recordings of real callers —
mono 16-bit PCM WAV at 24 kHz — keeping \`input.text\` as the reviewed transcript.

What to edit first, to evaluate your own assistant:

1. \`worlds/shop.ts\` — the state your assistant's backend reads and changes, and the operations (tools)
   it may call. Business-rule refusals are \`OperationError\`s; \`view\` is the flat projection your
   expected states are written against.
2. \`data/crawl.json\` — the scenarios: what the caller says, the initial state, and what must happen
   (\`expected\`: delegation, tools, state). Then \`data/run.json\`: the caller's goal, the facts it may
   give, and its agenda (what it says when the assistant does what). The docs of crashlab
   (\`node_modules/crashlab/docs/\`: \`datasets.md\`, \`conversations.md\`, \`grading.md\`) describe every
   field and how each is graded.
3. \`adapters/targets.ts\` — how to reach your assistant. Offline, \`policy.ts\` stands in for the model;
   with \`--live\` the same target talks to GPT-Live. Replace the instructions with your own.
4. \`verifiers/one-booking-per-call.ts\` — a check of your own over the trial record, gated in
   \`evaluations.ts\`.

\`policy.ts\` is a deterministic stand-in for the model, for offline runs: it reads the caller's words (and,
in a call, the caller's earlier turns) with a few rules. Keep it as small as your scenarios need; it is
not what you are evaluating.
`,

  "crashlab/evaluations.ts": `${importLine("{ datasetCases, definePlan, loadDataset }", "crashlab/alpha")}
${importLine("{ shopTargets }", "./adapters/targets")}
${importLine("{ SHOP_FACTS }", "./facts")}
${importLine("{ oneBookingPerCall }", "./verifiers/one-booking-per-call")}
${importLine("{ shopWorld }", "./worlds/shop")}

// Every scenario of a dataset becomes the case its shape calls for: a single-turn scenario is a CRAWL case
// (its words synthesized), one with recordings a WALK case per recording, a multi-turn one a RUN call.
const datasets = ["crawl.json", "walk.json", "run.json"].map((file) => loadDataset(new URL(\`./data/\${file}\`, import.meta.url)));

export const PLAN = definePlan({
  name: "bike-shop",
  targets: shopTargets(),
  default_target: "assistant",
  cases: datasets.flatMap((data) => datasetCases(data, { world: shopWorld })),
  verifiers: [oneBookingPerCall],
  // Public facts the semantic judge may cite; never put expected answers here.
  facts: SHOP_FACTS,
  gates: {
    outcome: { required: true, min_pass_rate: 1 },
    one_booking_per_call: { required: true, min_pass_rate: 1 },
  },
});
`,

  "crashlab/facts.ts": `/** Public facts about the shop: what the assistant may say without its backend. */
export const SHOP_FACTS = {
  name: "Spoke and Chain",
  hours: "Monday to Saturday, 9 a.m. to 6 p.m.",
  address: "3 Mill Lane",
  days: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday"],
} as const;

export type Day = (typeof SHOP_FACTS.days)[number];
`,

  "crashlab/worlds/shop.ts": `${importLine("{ defineWorld, OperationError, z }", "crashlab/alpha")}
${importLine("{ SHOP_FACTS }", "../facts")}

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
        if (!freeOn(base, args.day)) throw new OperationError("day_full", \`No service slot is free on \${args.day}.\`, { day: args.day });
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
  // The flat view: \`expected.state\` in the dataset is matched against the final state merged with this.
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
`,

  "crashlab/policy.ts": `${importLine("type { AssistantPolicy, HistoryMessage, PolicyTools }", "crashlab/alpha")}
${importLine("{ SHOP_FACTS }", "./facts")}

/*
 * The assistant's offline stand-in: a deterministic rule-based policy that drives the local GPT-Live
 * simulator (and the text target). It sees only what a real assistant sees: the caller's words, the
 * conversation so far and the context; its backend reaches the world only through tools.
 */

export interface ShopPolicyOptions {
  /** A deliberate defect, to show the evaluation catching it: book the same service twice. */
  double_books?: boolean;
}

type Intent = "facts" | "booking" | "availability" | "goodbye" | "none";

const DAY = new RegExp(\`\\\\b(\${SHOP_FACTS.days.join("|")})\\\\b\`, "i");
const NAME = /\\b(?:this is|i'm|i am|my name is|name is|for|under)\\s+([A-Z][a-z]+)\\b/g;
const FACTS = /\\b(?:open|close|hours|address|where are you)\\b/i;
const AVAILABILITY = /\\b(?:free|available|any (?:room|slots?|space)|do you have)\\b/i;
const BOOKING = /\\b(?:book|schedule|appointment|bring (?:it|my bike) in)\\b/i;
const GOODBYE = /\\b(?:bye|goodbye|that's all)\\b/i;

function intentOf(text: string): Intent {
  return FACTS.test(text) ? "facts" : BOOKING.test(text) ? "booking" : AVAILABILITY.test(text) ? "availability" : GOODBYE.test(text) ? "goodbye" : "none";
}

/** A name after "this is", "under"…, never a day ("for Tuesday"). */
function nameIn(text: string): string | undefined {
  for (const match of text.matchAll(NAME)) if (!DAY.test(match[1]!)) return match[1];
  return undefined;
}

/**
 * What the caller wants, read from this turn and the caller's earlier turns: a turn that only gives a
 * detail ("Thursday, please.") continues the request before it. Details given earlier still count.
 */
function read(request: string, history: readonly HistoryMessage[] = []) {
  const said = [...history.filter((m) => m.role === "user").map((m) => m.text), request];
  let intent = intentOf(request);
  for (let i = said.length - 2; intent === "none" && i >= 0; i--) intent = intentOf(said[i]!);
  const latest = <T>(find: (text: string) => T | undefined) => said.map(find).filter((v) => v !== undefined).at(-1);
  const day = latest((text) => DAY.exec(text)?.[1]?.toLowerCase());
  const name = latest(nameIn);
  return { day, name, intent };
}

const titled = (day: string) => day.charAt(0).toUpperCase() + day.slice(1);

export function shopPolicy(options: ShopPolicyOptions = {}): AssistantPolicy {
  return {
    name: "bike-shop-rules",
    version: "1.1.0",
    frontend({ request, context }) {
      const { day, name, intent } = read(request, context?.history);
      if (intent === "facts") return { kind: "reply", text: \`\${SHOP_FACTS.name} is open \${SHOP_FACTS.hours} We're at \${SHOP_FACTS.address}.\` };
      if (intent === "goodbye") return { kind: "reply", text: \`You're welcome. Thanks for calling \${SHOP_FACTS.name}, goodbye!\` };
      if (intent === "none") return { kind: "reply", text: "I can book a bike service or check a day for you. What would you like?" };
      if (!day) return { kind: "reply", text: "Which day would you like?" };
      if (intent === "booking" && !name) return { kind: "reply", text: "I can book that. What name should I put the booking under?" };
      return { kind: "delegate", acknowledgement: "One moment, let me check the book." };
    },
    async backend({ request, transcript }, tools: PolicyTools) {
      const { day, name, intent } = read(request, transcript);
      if (intent === "availability") {
        const result = await tools.call("check_day", { day });
        const free = (result.output as { free?: boolean }).free === true;
        return { reply: free ? \`Yes, we have a service slot free on \${titled(day!)}. Nothing is booked yet.\` : \`Sorry, \${titled(day!)} is fully booked.\` };
      }
      const result = await tools.call("book_service", { customer_name: name, day });
      if (options.double_books) await tools.call("book_service", { customer_name: name, day });
      if (result.status !== "completed") return { reply: \`Sorry, I couldn't book \${titled(day!)}: it is fully booked.\` };
      const { booking_id } = result.output as { booking_id: string };
      return { reply: \`You're booked in for a service on \${titled(day!)}, \${name}. Your booking number is \${booking_id}.\` };
    },
  };
}
`,

  "crashlab/adapters/targets.ts": `${importLine("{ gptLiveTarget, policyTarget, toolDeclarations, type TargetEntry, type TargetSettings }", "crashlab/alpha")}
${importLine("{ shopPolicy, type ShopPolicyOptions }", "../policy")}
${importLine("{ SHOP_FACTS }", "../facts")}
${importLine("{ shopWorld }", "../worlds/shop")}

const INSTRUCTIONS = \`You answer the phone for \${SHOP_FACTS.name}, a bike repair shop. Opening hours: \${SHOP_FACTS.hours}
Address: \${SHOP_FACTS.address}. Answer questions about these facts yourself. For booking a service or checking a
day, delegate to the backend; ask for the caller's name and the day when they are missing.\`;

const BACKEND_INSTRUCTIONS = \`You are the booking backend of \${SHOP_FACTS.name}. Use check_day for questions about a
day and book_service (once) to book; report only what the tools return.\`;

/** The tools the assistant's backend declares: the world's operations, with their argument schemas. */
const TOOLS = toolDeclarations(shopWorld);

/** The assistant over GPT-Live: the local simulator driven by the offline policy, the real service with --live. */
function voiceTarget(settings: TargetSettings, options: ShopPolicyOptions = {}) {
  return gptLiveTarget({
    settings,
    instructions: INSTRUCTIONS,
    backend_instructions: BACKEND_INSTRUCTIONS,
    tools: TOOLS,
    offline: { policy: shopPolicy(options) },
    describe: { double_books: options.double_books ?? false },
  });
}

/** The same assistant as text: no audio, no wire protocol; a fast check of the evaluation itself. */
function textTarget(options: ShopPolicyOptions = {}) {
  return policyTarget({ policy: shopPolicy(options), instructions: INSTRUCTIONS, tools: TOOLS, settings: { double_books: options.double_books ?? false } });
}

export function shopTargets(): Record<string, TargetEntry> {
  return {
    assistant: (settings) => voiceTarget(settings),
    assistant_text: () => textTarget(),
    faulty: (settings) => voiceTarget(settings, { double_books: true }),
    faulty_text: () => textTarget({ double_books: true }),
  };
}
`,

  "crashlab/verifiers/one-booking-per-call.ts": `${importLine("{ defineVerifier }", "crashlab/alpha")}

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
      rationale: bookings.length <= 1 ? \`\${bookings.length} booking(s)\` : \`\${bookings.length} bookings in one call\`,
      evidence_ids: bookings.map((e) => \`world.event.\${e.seq}\`),
    };
  },
});
`,

  "crashlab/data/crawl.json": JSON.stringify(
    {
      schema_version: "1.0",
      scenarios: [
        {
          id: "shop_book_service",
          title: "Book a service on a free day",
          type: "booking",
          interaction: "single_turn",
          tags: ["booking"],
          input: { text: "Hi, this is Ana. Can I book a service for Tuesday?" },
          application: { initial_state: {} },
          expected: {
            answer: "Book Ana's service on Tuesday and give the booking number.",
            criteria: ["Books Tuesday under Ana", "Confirms only after the booking succeeded"],
            delegation: "required",
            tools: { required: [{ name: "book_service", arguments: { customer_name: "Ana", day: "tuesday" } }], prohibited: [] },
            state: { booked: true, customer_name: "Ana", day: "tuesday", booking_count: 1 },
            golden_path: { turns: 1, delegations: 1, steps: ["Delegate the booking", "Call book_service once", "Confirm with the booking number"] },
          },
        },
        {
          id: "shop_check_day",
          title: "Check a day without booking it",
          type: "availability",
          interaction: "single_turn",
          tags: ["availability"],
          input: { text: "Do you have anything free on Thursday?" },
          application: { initial_state: {} },
          expected: {
            answer: "Say Thursday has a free slot, without booking it.",
            criteria: ["Checks Thursday", "Books nothing"],
            delegation: "required",
            tools: {
              required: [{ name: "check_day", arguments: { day: "thursday" } }],
              prohibited: [{ name: "book_service", arguments: {}, status: "any" }],
            },
            state: { unchanged: true },
            golden_path: { turns: 1, delegations: 1, steps: ["Delegate the question", "Call check_day once", "Report the answer"] },
          },
        },
        {
          id: "shop_missing_name",
          title: "Ask for the name before booking",
          type: "clarification",
          interaction: "single_turn",
          tags: ["clarification"],
          input: { text: "I'd like to book a service on Friday." },
          application: { initial_state: {} },
          expected: {
            answer: "Ask for the caller's name; book nothing yet.",
            criteria: ["Asks for the name", "Books nothing"],
            delegation: "forbidden",
            tools: { required: [], prohibited: [] },
            state: { unchanged: true },
            golden_path: { turns: 1, delegations: 0, steps: ["Ask for the missing name"] },
          },
        },
        {
          id: "shop_hours",
          title: "Answer the opening hours directly",
          type: "information",
          interaction: "single_turn",
          tags: ["information"],
          input: { text: "When are you open on Saturday?" },
          application: { initial_state: {} },
          expected: {
            answer: "Monday to Saturday, 9 a.m. to 6 p.m., answered without the backend.",
            criteria: ["Gives the opening hours"],
            delegation: "forbidden",
            tools: { required: [], prohibited: [] },
            state: { unchanged: true },
            golden_path: { turns: 1, delegations: 0, steps: ["Answer from the public facts"] },
          },
        },
      ],
    },
    null,
    2,
  ) + "\n",

  "crashlab/data/run.json": JSON.stringify(
    {
      schema_version: "1.0",
      scenarios: [
        {
          id: "shop_call_book_service",
          title: "A phone call that books a service, one detail at a time",
          type: "booking",
          interaction: "multi_turn",
          tags: ["run", "booking", "clarification"],
          input: { text: "Hi, I'd like to book a service for my bike." },
          application: { initial_state: {} },
          simulation_parameters: {
            goal: "Book a bike service on Thursday under the name Ana. Give the day and the name only when asked.",
            known_facts: { day: "thursday", customer_name: "Ana" },
            expectations: ["Give one detail at a time, only when asked."],
            agenda: [
              {
                id: "give_day",
                commitment: "Say which day.",
                trigger_condition: "The assistant asks which day the caller would like.",
                completion_condition: "The caller has said Thursday.",
                action: "answer",
                facts: ["day"],
                response_hint: "Thursday, please.",
              },
              {
                id: "give_name",
                commitment: "Give the name for the booking.",
                trigger_condition: "The assistant asks what name the booking should be under.",
                completion_condition: "The caller has given the name Ana.",
                action: "answer",
                facts: ["customer_name"],
                response_hint: "It's under Ana.",
                after: ["give_day"],
              },
              {
                id: "hang_up",
                commitment: "Thank the assistant and hang up once the service is booked.",
                trigger_condition: "The assistant says the service is booked.",
                completion_condition: "The caller knows the service is booked.",
                action: "finish",
                response_hint: "Great, thank you. Bye!",
                after: ["give_name"],
                required: false,
              },
            ],
            persona: { id: "cyclist", description: "A commuter whose bike needs a service; brief.", voice: "sage", interrupt_tendency: 0, backchannel_tendency: 0 },
          },
          expected: {
            answer: "Ask for the day, then the name, book Thursday under Ana once, and give the booking number.",
            criteria: ["Asks for each missing detail", "Books Thursday under Ana, once", "Confirms only after the booking succeeded"],
            delegation: "required",
            tools: { required: [{ name: "book_service", arguments: { customer_name: "Ana", day: "thursday" } }], prohibited: [] },
            state: { booked: true, customer_name: "Ana", day: "thursday", booking_count: 1 },
            golden_path: {
              turns: 7,
              delegations: 1,
              steps: [
                "The caller asks to book a service.",
                "The assistant asks which day.",
                "The caller says Thursday.",
                "The assistant asks for the name.",
                "The caller gives the name.",
                "The assistant books the service and gives the booking number.",
                "The caller says goodbye.",
              ],
            },
            procedure: {
              id: "ask_then_book",
              steps: [
                { id: "ask_day", kind: "clarification", arguments: { field: "day" } },
                { id: "ask_name", kind: "clarification", arguments: { field: "customer_name" }, after: ["ask_day"] },
                { id: "book", kind: "tool", tool: "book_service", arguments: { customer_name: "Ana", day: "thursday" }, after: ["ask_name"], critical: true },
              ],
            },
          },
        },
      ],
    },
    null,
    2,
  ) + "\n",
};
