/**
 * reviews.jsonl: what people said about a run's trials, one review a line, in the run folder beside
 * results.json. A review is a verdict on one trial for one verifier id — a semantic clause the judge also
 * decided (`semantic.task_understanding`) or a human dimension no verifier measures (`human.naturalness`).
 * The file is only ever appended to (one write per review), so a reviewer changes their mind by writing a
 * later line: for one trial, verifier and reviewer the last line counts.
 */
import { join } from "node:path";
import { z } from "zod";
import { HUMAN_DIMENSION_IDS, type HumanVerdict, type HumanVerdicts } from "../gate/human";
import { appendRunLine, readRunFile } from "../run-folder/files";
import { shown, shownValue } from "../run-folder/text";
import { UserError } from "../user-error";

export const REVIEWS_FILE = "reviews.jsonl";

/** A reviews.jsonl that cannot be used, or a review that cannot be appended: names the file and line. */
export class ReviewError extends UserError {
  override readonly name = "ReviewError";
}

const nonEmpty = z.string().refine((s) => s.trim() !== "", "expected a non-empty string");

/** Where in the conversation the reviewer points: one utterance, or a span of the recording in ms. */
export const ReviewAnchor = z.union([
  z.strictObject({ utterance_id: nonEmpty }),
  z
    .strictObject({ start_ms: z.number().int().min(0), end_ms: z.number().int().min(0) })
    .refine((a) => a.end_ms >= a.start_ms, { message: "end_ms must not be before start_ms", path: ["end_ms"] }),
]);
export type ReviewAnchor = z.infer<typeof ReviewAnchor>;

export const Review = z.strictObject({
  /** The trial id as results.json writes it (`case#2`). */
  trial_id: nonEmpty,
  /** `semantic.<clause>` (people's verdict on a judge's clause) or `human.<dimension>`. */
  verifier: nonEmpty,
  verdict: z.enum(["passed", "failed", "unsure"]),
  /** Who reviewed: a name or handle, compared exactly. */
  reviewer: nonEmpty,
  note: z.string(),
  /** When, as an ISO 8601 date and time with its offset. */
  at: z.iso.datetime({ offset: true }),
  anchor: ReviewAnchor.optional(),
});
export type Review = z.infer<typeof Review>;

/** The JSON Schema of one line of reviews.jsonl (`crashlab schema --reviews`). */
export function reviewsJsonSchema(): unknown {
  return z.toJSONSchema(Review, { target: "draft-2020-12" });
}

/** What a review must refer to: the run's trials, and the verifiers people may review in it. */
export interface ReviewScope {
  trial_ids: ReadonlySet<string>;
  /** `human.*` dimensions and the run's semantic verifiers (see `reviewableVerifiers`). */
  verifiers: ReadonlySet<string>;
}

/** What may be reviewed in a run with this gate configuration: every human dimension, and its semantic clauses. */
export function reviewableVerifiers(gateConfig: Readonly<Record<string, unknown>>): Set<string> {
  return new Set([...HUMAN_DIMENSION_IDS, ...Object.keys(gateConfig).filter((id) => id.startsWith("semantic."))]);
}

/** A review as read back: where it came from, and (carried over from an earlier run) which run said it. */
export interface StoredReview extends Review {
  line: number;
  /** Set on a review carried over from an earlier run whose trial had the same provenance digest. */
  carried_from?: string;
  /** The trial id in that earlier run. */
  carried_trial_id?: string;
}

const describe = (value: unknown) => shownValue(value, 60);

/**
 * The most a reviews.jsonl may hold. A review is a few hundred bytes, so this is some 200,000 of them; a
 * larger file was not written by people reviewing, and reading it whole would take that much memory.
 */
export const REVIEWS_LIMIT_BYTES = 64 << 20;

/** Check one review against the schema and the run; the problem in words, or null. */
function problemOf(value: unknown, scope: ReviewScope): string | null {
  const parsed = Review.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === "unrecognized_keys") {
      const keys = issue.keys.slice(0, 5).map((k) => shownValue(k, 40)).join(", ");
      return `unknown field(s) ${keys}${issue.keys.length > 5 ? ` and ${issue.keys.length - 5} more` : ""} (a review has trial_id, verifier, verdict, reviewer, note, at and optionally anchor)`;
    }
    const at = issue.path.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[k] : undefined), value);
    const field = shown(issue.path.join("."), 60) || "(the line)";
    const hint = field === "at" ? "expected an ISO 8601 date and time, e.g. 2026-01-31T14:05:00Z" : field === "verdict" ? 'expected "passed", "failed" or "unsure"' : issue.path.length === 0 ? "expected a JSON object" : shown(issue.message, 200);
    return `field ${field}: ${hint} (got ${describe(at)})`;
  }
  const r = parsed.data;
  if (!scope.trial_ids.has(r.trial_id)) return `trial_id ${describe(r.trial_id)} is not a trial of this run (results.json has ${scope.trial_ids.size} trial(s), e.g. ${shown([...scope.trial_ids].slice(0, 3).join(", "), 200)})`;
  if (!scope.verifiers.has(r.verifier)) return `verifier ${describe(r.verifier)} cannot be reviewed in this run (reviewable: ${shown([...scope.verifiers].join(", "), 300)})`;
  return null;
}

/**
 * Read and check every line of a run's reviews.jsonl (none yet: no reviews). A line that is not JSON, does
 * not fit the schema, names a trial the run lacks or a verifier that cannot be reviewed is refused, naming the
 * file and the line: reviews decide gates, so none is skipped quietly. Blank lines are allowed.
 */
export function readReviews(runDir: string, scope: ReviewScope): StoredReview[] {
  const file = join(runDir, REVIEWS_FILE);
  // Through the run folder's checks: a link out of the folder, to nothing or to itself, a FIFO or a
  // folder in its place is refused (RunFolderError), a file this user may not read is the machine's fault.
  const bytes = readRunFile(runDir, REVIEWS_FILE, {
    bytes: REVIEWS_LIMIT_BYTES,
    what: "a reviews.jsonl may hold (a review is a few hundred bytes): people reviewing did not write it — move it away, or cut it down to the reviews of this run",
  });
  if (!bytes) return [];
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ReviewError(`${file} is not UTF-8 text (a byte sequence in it is not valid UTF-8); it holds one JSON review a line — fix or remove the lines that are not`);
  }
  const reviews: StoredReview[] = [];
  const lines = text.split("\n");
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new ReviewError(`${file}, line ${line}: not a JSON review (${shown((error as Error).message)}); fix or remove the line (each line is one JSON object, see \`crashlab schema --reviews\`)`);
    }
    const problem = problemOf(value, scope);
    if (problem) throw new ReviewError(`${file}, line ${line}: ${problem}; fix or remove the line`);
    reviews.push({ ...Review.parse(value), line });
  }
  return reviews;
}

/**
 * Append one review as one line, with one write to a file opened for appending, so two reviewers saving at
 * once each add a whole line. The review is checked first (the same checks as `readReviews`); nothing is
 * written when it is refused. A file whose last line lacks its newline (edited by hand) gets it first.
 */
export function appendReview(runDir: string, review: Review, scope: ReviewScope): void {
  const file = join(runDir, REVIEWS_FILE);
  const problem = problemOf(review, scope);
  if (problem) throw new ReviewError(`a review for ${file} was refused: ${problem}`);
  // Never through a link (one planted after the checks included): the review lands in this run folder or nowhere.
  appendRunLine(runDir, REVIEWS_FILE, JSON.stringify(Review.parse(review)));
}

/** The reviews that count: for each trial, verifier and reviewer the last one (later lines supersede earlier). */
export function latestReviews<R extends Review>(reviews: readonly R[]): R[] {
  const last = new Map<string, R>();
  for (const r of reviews) {
    const key = JSON.stringify([r.trial_id, r.verifier, r.reviewer]);
    last.delete(key);
    last.set(key, r);
  }
  return [...last.values()];
}

/**
 * Each trial's human verdict per verifier: the majority of its reviewers' latest passed and failed verdicts;
 * a tie, or only unsure reviewers, is unsure. Pass the reviews already reduced by `latestReviews`.
 */
export function humanVerdicts(latest: readonly Review[]): Map<string, Map<string, HumanVerdict>> {
  const counts = new Map<string, Map<string, { passed: number; failed: number }>>();
  for (const r of latest) {
    const byVerifier = counts.get(r.trial_id) ?? counts.set(r.trial_id, new Map()).get(r.trial_id)!;
    const c = byVerifier.get(r.verifier) ?? byVerifier.set(r.verifier, { passed: 0, failed: 0 }).get(r.verifier)!;
    if (r.verdict === "passed") c.passed++;
    else if (r.verdict === "failed") c.failed++;
  }
  const out = new Map<string, Map<string, HumanVerdict>>();
  for (const [trial, byVerifier] of counts)
    out.set(trial, new Map([...byVerifier].map(([v, c]) => [v, c.passed > c.failed ? "passed" : c.failed > c.passed ? "failed" : "unsure"] as const)));
  return out;
}

export type { HumanVerdicts };
