/**
 * `crashlab vary`: check a package's grader before trusting it — variants of the package's own offline
 * assistant, correct and faulty, run as real trials; the matrix, the false-fail and miss rates, exit 1 when
 * either is not 0 (docs/vary.md).
 */
import { runPackage } from "../runner/front";
import { engineOptions } from "../runner/engine";
import { findPackage, loadPackage, transpileCacheDir } from "../package/load";
import { planLayer } from "../settings/plan-defaults";
import { resolveSettings } from "../settings/resolve";
import { checkCasesAgainstWorlds } from "../run/preflight";
import type { DelegationMode } from "../target/types";
import { OPERATORS, OPERATOR_IDS } from "../vary/operators";
import { renderVary } from "../vary/render";
import { runVary, varyPassed } from "../vary/run";
import { parseFlags, UsageError, wholeNumber } from "./flags";
import type { CliIO } from "./io";

export const VARY_HELP = `crashlab vary — check your grader before you trust it

Usage: crashlab vary [options]

Runs variants of the package's own offline assistant as real trials (the local GPT-Live simulator, virtual
time): correct variants (reworded, values said in words, sentences split and joined, a preamble, longer
answers, a confirmation question before a write, an extra read-only call), whose verdicts must equal the
unchanged assistant's, and faults (a value swapped for a neighbouring, meridiem-flipped or other record's
one, a claim before or without its result, the result left out, a write the caller never agreed to or
declined, a repeated write, another record's details disclosed), each of which must fail on the check it
names. Prints the matrix (variant × case × mode → verdict) and the false-fail and miss rates.

Options:
  --package <path>          the evaluation package (default: crashlab/evaluations.ts here or above)
  --target <name>           the PLAN target to vary (default: the PLAN's default target); it must build
                            its assistant with gptLiveTarget from the settings its factory is given
  --seed <n>                the seed of the trials and of the variants (default 1)
  --variants <n>            how many variants to generate, dealt round-robin over the operators
                            (default 40); each runs in every mode
  --cases <ids>             comma-separated case ids (default: every CRAWL and RUN case)
  --modes <list>            delegation modes, comma-separated: responses, client (default: both)
  --operators <ids>         comma-separated operator ids (default: all): ${OPERATOR_IDS.join(", ")}
  --concurrency <n>         trials at once, 1–8 (default 2); each has its own world, session and
                            virtual clock, so the verdicts do not depend on it
  --all                     list every cell of the matrix, not only those that are not ok
  --json                    print the whole result as JSON (for machines) instead of the text report
  -h, --help                this text

Exit codes:
  0  every counted cell is ok: no false fail, no miss
  1  a false fail or a miss (or nothing was counted at all)
  2  usage or input error (a bad flag, package or case id)
  3  infrastructure errors prevented a decision

Cells where the variant did not act, whose intended check the grader does not have yet, or whose base
already fails that check are reported and not counted (docs/vary.md).`;

const MODES: readonly DelegationMode[] = ["responses", "client"];

function list(flag: string, text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const items = text.split(",").map((s) => s.trim()).filter(Boolean);
  if (items.length === 0) throw new UsageError(`${flag} needs at least one value`);
  return [...new Set(items)];
}

export async function varyCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags(argv, {
    package: { type: "string" },
    target: { type: "string" },
    seed: { type: "string" },
    variants: { type: "string" },
    cases: { type: "string" },
    modes: { type: "string" },
    operators: { type: "string" },
    concurrency: { type: "string" },
    all: { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) {
    io.stdout(VARY_HELP + "\n");
    return 0;
  }
  const seed = values.seed === undefined ? 1 : wholeNumber("--seed", values.seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const variants = values.variants === undefined ? 40 : wholeNumber("--variants", values.variants, { min: 1, max: 100_000 });
  const modes = (list("--modes", values.modes) ?? [...MODES]).map((m) => {
    if (!(MODES as readonly string[]).includes(m)) throw new UsageError(`--modes takes responses and/or client (got "${m}")`);
    return m as DelegationMode;
  });
  const concurrency = values.concurrency === undefined ? 2 : wholeNumber("--concurrency", values.concurrency, { min: 1, max: 8 });
  const operatorIds = list("--operators", values.operators);
  for (const id of operatorIds ?? []) if (!OPERATOR_IDS.includes(id)) throw new UsageError(`--operators: unknown operator "${id}"; the operators are ${OPERATOR_IDS.join(", ")}`);
  const operators = operatorIds ? OPERATORS.filter((o) => operatorIds.includes(o.id)) : OPERATORS;

  const cache = transpileCacheDir(io.env ?? {});
  try {
    const pkg = await loadPackage(findPackage(io.cwd, values.package), io.alpha, cache.dir);
    const plan = pkg.plan;
    const target = values.target ?? plan.default_target ?? Object.keys(plan.targets)[0]!;
    if (!plan.targets[target]) throw new UsageError(`--target: unknown target "${target}"; the plan declares ${Object.keys(plan.targets).join(", ")}`);
    const wanted = list("--cases", values.cases);
    for (const id of wanted ?? []) if (!plan.cases.some((c) => c.id === id)) throw new UsageError(`--cases: the plan has no case "${id}" (\`crashlab list\` shows the cases)`);
    const cases = wanted ? plan.cases.filter((c) => wanted.includes(c.id)) : plan.cases.filter((c) => c.kind === "crawl" || c.kind === "run");
    if (cases.length === 0) throw new UsageError("no case to vary: the plan has no CRAWL or RUN case (give WALK cases by id with --cases)");
    checkCasesAgainstWorlds(cases);

    // The run settings `crashlab run` would resolve from the PLAN's defaults, offline.
    const resolution = resolveSettings([planLayer(plan.defaults)]);
    const settings = { ...resolution.settings, live: false, seed, quiet: true, judge: false };
    const identity = runPackage(pkg, cache.dir);
    const engine = engineOptions(settings, {}, { package_dir: pkg.dir, package_digest: identity.digest, ...(identity.identity ? { package_identity: identity.identity } : {}), cwd: io.cwd, conversations: cases.some((c) => c.kind === "run") });
    if (engine.target_settings?.mode !== "offline") throw new UsageError("crashlab vary runs offline only: the PLAN's defaults point the target at a live service");

    // Progress goes to stderr (stdout holds the report, or the JSON).
    const progress = (line: string) => io.stderr(`${line}\n`);
    const result = await runVary({
      plan,
      target,
      engine,
      seed,
      variants,
      cases,
      modes,
      operators,
      concurrency,
      onBase: (b, done, total) => progress(`vary: base ${done}/${total} ${b.case_id} ${b.mode}: ${b.status}`),
      onCell: (c, done, total) => progress(`vary: ${done}/${total} ${c.variant} ${c.case_id} ${c.mode}: ${c.verdict}`),
      ...(io.signal ? { signal: io.signal } : {}),
    });
    io.stdout(values.json ? `${JSON.stringify(result, null, 2)}\n` : renderVary(result, { all: values.all ?? false }));
    if (result.base.some((b) => b.status === "infrastructure_error") || result.cells.some((c) => c.status === "infrastructure_error")) {
      io.stderr("crashlab: infrastructure errors in the matrix (see the cells marked infrastructure_error)\n");
      return 3;
    }
    return varyPassed(result.summary) ? 0 : 1;
  } finally {
    cache.dispose();
  }
}
