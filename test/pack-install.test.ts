import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { brokenLinks } from "./markdown-links";

/*
 * A new user's path, end to end: crashlab packed as a tarball (`npm pack`), installed with npm into a
 * fresh repository outside this checkout, `crashlab init`, the type check, the scaffold's evaluation
 * (exit 0), its faulty target (exit 1), then a second domain written by editing only the scaffold's files.
 * npm fetches zod, TypeScript and the Node types from the registry, as it would for the user.
 *
 * The tarball is packed from a copy of the sources built on its own, so other tests that use this
 * checkout's dist/ never see it rebuilt under them.
 */

const root = resolve(__dirname, "..");
const work = mkdtempSync(join(tmpdir(), "crashlab-pack-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Result {
  code: number;
  out: string;
}

function sh(command: string, args: string[], cwd: string): Result {
  // A clean environment: nothing points back at this checkout.
  const env = { PATH: process.env.PATH ?? "", HOME: join(work, "home"), npm_config_cache: join(work, "npm-cache"), npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
  const r = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 600_000 });
  return { code: r.status ?? -1, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

function pack(): string {
  const src = join(work, "source");
  mkdirSync(src);
  for (const entry of ["package.json", "README.md", "PACKAGE-README.md", "scripts/pack-files.mjs", "docs", "src", "templates", "tsconfig.json", "tsup.config.ts", "schema"]) cpSync(join(root, entry), join(src, entry), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(src, "node_modules"));
  execFileSync(join(root, "node_modules/.bin/tsup"), { cwd: src, stdio: "pipe" });
  // npm pack, as a release would: prepack and postpack put the users' README and package.json in place.
  execFileSync("npm", ["pack", "--pack-destination", work], { cwd: src, stdio: "pipe", env: { ...process.env, npm_config_update_notifier: "false" } });
  const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  return join(work, tarball);
}

describe("a packed crashlab, installed and initialised in a fresh repository", () => {
  it("installs without warnings, scaffolds a package that type-checks and passes, catches its defect, and takes a second domain", { timeout: 900_000 }, () => {
    const tarball = pack();
    const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" });
    expect(listing).toContain("package/docs/README.md");
    expect(listing).toContain("package/dist/cli.js");
    expect(listing).toContain("package/templates/init/crashlab/evaluations.ts");
    expect(listing).not.toContain("package/templates/tsconfig.json");
    expect(listing).toContain("package/dist/viewer.js");
    expect(listing).not.toContain("package/src/");
    // The README for package users, not the repository's; every Markdown link in the tarball resolves inside it.
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
    const pkgRoot = join(unpacked, "package");
    expect(readFileSync(join(pkgRoot, "README.md"), "utf8")).toBe(readFileSync(join(root, "PACKAGE-README.md"), "utf8"));
    expect(Object.keys(JSON.parse(readFileSync(join(pkgRoot, "package.json"), "utf8")).scripts)).not.toContain("prepare");
    const pages = readdirSync(pkgRoot, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".md"));
    expect(pages.length).toBeGreaterThan(10);
    expect(brokenLinks(pages.map((p) => join(pkgRoot, p)), (file) => !relative(pkgRoot, file).startsWith(".."))).toEqual([]);

    const app = join(work, "app");
    mkdirSync(app);
    expect(sh("git", ["init", "-q"], app).code).toBe(0);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "clinic-evals", version: "0.0.0", private: true, type: "module" }, null, 2));
    const install = sh("npm", ["install", tarball], app);
    expect(install.code, install.out).toBe(0);
    expect(install.out).not.toMatch(/\bwarn\b/i);

    const init = sh("npx", ["crashlab", "init"], app);
    expect(init.code, init.out).toBe(0);
    const deps = sh("npm", ["install"], app);
    expect(deps.code, deps.out).toBe(0);
    expect(deps.out).not.toMatch(/\bwarn\b/i);

    const typecheck = sh("npx", ["tsc", "--noEmit"], app);
    expect(typecheck.code, typecheck.out).toBe(0);
    const run = sh("npx", ["crashlab", "run", "--quiet", "--results-dir", join(work, "results")], app);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("6 trials (target assistant): 6 passed");
    const kinds = readRunKinds(join(work, "results"));
    expect(kinds).toEqual({ crawl: 4, walk: 1, run: 1 });
    const faulty = sh("npx", ["crashlab", "run", "--quiet", "--target", "faulty", "--results-dir", join(work, "results")], app);
    expect(faulty.code, faulty.out).toBe(1);
    expect(faulty.out).toMatch(/gate required FAIL\s+one_booking_per_call/);

    // A second domain, by editing only the scaffold's files: a library's loans desk.
    for (const [file, text] of Object.entries(LIBRARY)) writeFileSync(join(app, "crashlab", file), text);
    rmSync(join(app, "crashlab/worlds/shop.ts"));
    const typecheck2 = sh("npx", ["tsc", "--noEmit"], app);
    expect(typecheck2.code, typecheck2.out).toBe(0);
    const run2 = sh("npx", ["crashlab", "run", "--quiet", "--results-dir", join(work, "results")], app);
    expect(run2.code, run2.out).toBe(0);
    expect(run2.out).toContain("3 trials (target assistant): 3 passed");
    const faulty2 = sh("npx", ["crashlab", "run", "--quiet", "--target", "faulty_text", "--results-dir", join(work, "results")], app);
    expect(faulty2.code, faulty2.out).toBe(1);
  });
});

/** Trials per case kind in the newest run folder under `results`. */
function readRunKinds(results: string): Record<string, number> {
  const newest = readdirSync(results).sort().at(-1)!;
  const trials = (JSON.parse(readFileSync(join(results, newest, "results.json"), "utf8")) as { trials: Array<{ case_kind: string }> }).trials;
  const kinds: Record<string, number> = {};
  for (const t of trials) kinds[t.case_kind] = (kinds[t.case_kind] ?? 0) + 1;
  return kinds;
}

/** The second domain: what a user writes over the scaffold (facts, world, policy, dataset, wiring). */
const LIBRARY: Record<string, string> = {
  "facts.ts": `export const SHOP_FACTS = {
  name: "Elm Street Library",
  hours: "Tuesday to Sunday, 10 a.m. to 7 p.m.",
  address: "12 Elm Street",
} as const;
`,
  "worlds/library.ts": `import { defineWorld, OperationError, z } from "crashlab/alpha";

const Loan = z.strictObject({ id: z.string(), member: z.string().min(1), title: z.string().min(1) });
const LibraryState = z.strictObject({ copies: z.record(z.string(), z.int().nonnegative()), loans: z.record(z.string(), Loan) });
type LibraryState = z.output<typeof LibraryState>;

const Title = z.string().trim().toLowerCase().min(1);

export const libraryWorld = defineWorld<LibraryState>({
  name: "library",
  version: "1.0.0",
  state: LibraryState,
  initialState: (portable) => LibraryState.parse({ copies: { "the hobbit": 2, "dune": 0 }, loans: {}, ...portable }),
  operations: {
    check_title: {
      kind: "read",
      description: "Whether a copy of a title can be lent now.",
      args: z.strictObject({ title: Title }),
      run: ({ state, args }) => ({ title: args.title, on_shelf: (state.copies[args.title] ?? 0) > 0 }),
    },
    lend_book: {
      kind: "write",
      description: "Lend a copy of a title to a member. Returns the loan id.",
      args: z.strictObject({ member: z.string().trim().min(1), title: Title }),
      run: ({ state, base, args, random }) => {
        if ((base.copies[args.title] ?? 0) === 0) throw new OperationError("not_on_shelf", \`No copy of \${args.title} is on the shelf.\`);
        const id = random.id("L");
        state.copies[args.title] = base.copies[args.title]! - 1;
        state.loans[id] = { id, member: args.member, title: args.title };
        return { loan_id: id, title: args.title };
      },
    },
  },
  view: (final, initial) => {
    const made = Object.values(final.loans).filter((l) => !(l.id in initial.loans));
    return { lent: made.length > 0, member: made.at(-1)?.member ?? null, title: made.at(-1)?.title ?? null, loan_count: made.length };
  },
});
`,
  "policy.ts": `import type { AssistantPolicy } from "crashlab/alpha";
import { SHOP_FACTS } from "./facts";

export interface ShopPolicyOptions {
  double_books?: boolean;
}

const TITLE = /"([^"]+)"/;
const MEMBER = /\\b(?:this is|i'm|for)\\s+([A-Z][a-z]+)\\b/;

export function shopPolicy(options: ShopPolicyOptions = {}): AssistantPolicy {
  const read = (text: string) => ({ title: TITLE.exec(text)?.[1]?.toLowerCase(), member: MEMBER.exec(text)?.[1], borrow: /\\bborrow\\b/i.test(text), hours: /\\bopen\\b/i.test(text) });
  return {
    name: "library-rules",
    version: "1.0.0",
    frontend({ request }) {
      const r = read(request);
      if (r.hours) return { kind: "reply", text: \`\${SHOP_FACTS.name} is open \${SHOP_FACTS.hours}\` };
      if (!r.title) return { kind: "reply", text: "Which book would you like?" };
      return { kind: "delegate", acknowledgement: "Let me look." };
    },
    async backend({ request }, tools) {
      const r = read(request);
      if (!r.borrow) {
        const check = await tools.call("check_title", { title: r.title });
        return { reply: (check.output as { on_shelf?: boolean }).on_shelf ? \`Yes, \${r.title} is on the shelf.\` : \`Sorry, \${r.title} is out.\` };
      }
      const loan = await tools.call("lend_book", { member: r.member, title: r.title });
      if (options.double_books) await tools.call("lend_book", { member: r.member, title: r.title });
      return { reply: loan.status === "completed" ? \`\${r.title} is yours, \${r.member}.\` : \`Sorry, \${r.title} is out.\` };
    },
  };
}
`,
  "adapters/targets.ts": `import { gptLiveTarget, policyTarget, toolDeclarations, type TargetEntry, type TargetSettings } from "crashlab/alpha";
import { shopPolicy, type ShopPolicyOptions } from "../policy";
import { libraryWorld } from "../worlds/library";

const INSTRUCTIONS = "You answer the phone for a library. Delegate loans and shelf checks to the backend.";
const TOOLS = toolDeclarations(libraryWorld);

function voiceTarget(settings: TargetSettings, options: ShopPolicyOptions = {}) {
  return gptLiveTarget({ settings, instructions: INSTRUCTIONS, backend_instructions: "Use the tools.", tools: TOOLS, offline: { policy: shopPolicy(options) } });
}

export function shopTargets(): Record<string, TargetEntry> {
  return {
    assistant: (settings) => voiceTarget(settings),
    faulty_text: () => policyTarget({ policy: shopPolicy({ double_books: true }), instructions: INSTRUCTIONS, tools: TOOLS }),
  };
}
`,
  "verifiers/one-booking-per-call.ts": `import { defineVerifier } from "crashlab/alpha";

export const oneBookingPerCall = defineVerifier({
  id: "one_booking_per_call",
  version: "1.1",
  kind: "deterministic",
  description: "A call lends at most one copy",
  required: true,
  assess({ record }) {
    const loans = record.world.events.filter((e) => e.operation === "lend_book" && e.outcome === "ok");
    return { status: loans.length <= 1 ? "passed" : "failed", rationale: \`\${loans.length} loan(s)\`, evidence_ids: loans.map((e) => \`world.event.\${e.seq}\`) };
  },
});
`,
  "evaluations.ts": `import { datasetCases, definePlan, loadDataset } from "crashlab/alpha";
import { shopTargets } from "./adapters/targets";
import { SHOP_FACTS } from "./facts";
import { oneBookingPerCall } from "./verifiers/one-booking-per-call";
import { libraryWorld } from "./worlds/library";

export const PLAN = definePlan({
  name: "library",
  targets: shopTargets(),
  cases: datasetCases(loadDataset(new URL("./data/crawl.json", import.meta.url)), { world: libraryWorld }),
  verifiers: [oneBookingPerCall],
  // What the assistant may state without its backend (the hours): grounded_response reads them.
  facts: SHOP_FACTS,
  gates: { outcome: { required: true, min_pass_rate: 1 }, one_booking_per_call: { required: true, min_pass_rate: 1 } },
});
`,
  "data/crawl.json": JSON.stringify({
    schema_version: "1.0",
    scenarios: [
      {
        id: "lib_borrow", title: "Borrow a book on the shelf", type: "booking", interaction: "single_turn", tags: ["loan"],
        input: { text: 'Hi, this is Omar. I would like to borrow "The Hobbit".' },
        application: { initial_state: {} },
        expected: {
          answer: "Lend The Hobbit to Omar.", criteria: ["Lends it once"], delegation: "required",
          tools: { required: [{ name: "lend_book", arguments: { member: "Omar", title: "the hobbit" } }], prohibited: [] },
          state: { lent: true, member: "Omar", title: "the hobbit" }, golden_path: { turns: 1, steps: [] },
        },
      },
      {
        id: "lib_check", title: "Ask whether a book is out", type: "availability", interaction: "single_turn", tags: ["check"],
        input: { text: 'Is "Dune" on the shelf?' },
        application: { initial_state: {} },
        expected: {
          answer: "Dune is out.", criteria: ["Checks Dune"], delegation: "required",
          tools: { required: [{ name: "check_title", arguments: { title: "dune" } }], prohibited: [{ name: "lend_book", status: "any" }] },
          state: { unchanged: true }, golden_path: { turns: 1, steps: [] },
        },
      },
      {
        id: "lib_hours", title: "Opening hours", type: "information", interaction: "single_turn", tags: ["information"],
        input: { text: "When are you open?" },
        application: { initial_state: {} },
        expected: {
          answer: "Tuesday to Sunday, 10 to 7.", criteria: ["Gives the hours"], delegation: "forbidden",
          tools: { required: [], prohibited: [] }, state: { unchanged: true }, golden_path: { turns: 1, steps: [] },
        },
      },
    ],
  }, null, 2),
};
