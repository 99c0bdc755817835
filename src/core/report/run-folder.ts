/** report.html built from a run folder alone, so a report written now and one rebuilt later are the same. */

import { join } from "node:path";
import { trialDetail, reportData, reportTrial, type ReportExtras, type ReportTrial, type TrialSource, type TranscriptFile } from "./view-model";
import { emptyReviewsView, reviewsView } from "./reviews-view";
import { loadRunReviews, readRunResults } from "../review/run-reviews";
import { REVIEWS_FILE, ReviewError } from "../review/reviews";
import { scanResultsFile } from "./results-reader";
import { conversationView } from "./waveform";
import { machineFault } from "../files/machine-fault";
import { openRunFile, readRunFile, RunFolderError, statRunFile, writeRunFile } from "../run-folder/files";
import { shown } from "../run-folder/text";
import { redactShapes, type Redact } from "../services/redact";
import { packTrial, reportHtml, type PageMode } from "./html";
import { ResultsFile, ResultsTrial } from "../record/results";

export { RunFolderError };

/** results.json read and checked whole (the schema, the human gates it can have), through the run folder's checks. */
export const readResults: (runDir: string) => ResultsFile = readRunResults;

/** The most a transcript file and a conversation.wav read by the report may hold. */
const TRANSCRIPT_LIMIT = { bytes: 256 << 20, what: "a trial's transcript file may hold (one trial's conversation); it was not written by crashlab — run again" };
const WAV_LIMIT = { bytes: 1 << 30, what: "a trial's conversation.wav may hold; it was not written by crashlab — run again" };

/**
 * One trial's artifacts as the report needs them; what is missing or unreadable is named, never hidden. A
 * path that leads out of the run folder, or to anything but a file, is refused (RunFolderError) rather
 * than read.
 */
async function trialSource(runDir: string, trial: ResultsFile["trials"][number]): Promise<TrialSource> {
  const problems: string[] = [];
  let transcript: TranscriptFile | null = null;
  const transcriptPath = trial.artifacts.transcript;
  const transcriptBytes = transcriptPath ? readRunFile(runDir, transcriptPath, TRANSCRIPT_LIMIT) : null;
  if (transcriptBytes) {
    try {
      transcript = JSON.parse(transcriptBytes.toString("utf8")) as TranscriptFile;
    } catch (error) {
      problems.push(`${transcriptPath} is unreadable: ${shown((error as Error).message)}`);
    }
  } else problems.push(`transcript artifact ${transcriptPath ?? "(none recorded)"} is missing`);
  let audio = null;
  const wav = trial.artifacts.conversation_wav;
  if (wav) {
    const bytes = readRunFile(runDir, wav, WAV_LIMIT);
    if (bytes) {
      try {
        audio = await conversationView(bytes, wav, trial.metrics.audio?.speech_detector);
      } catch (error) {
        problems.push(`${wav} cannot be drawn: ${shown((error as Error).message)}`);
      }
    } else problems.push(`${wav} is missing`);
  }
  return { trial, transcript, audio, problems };
}

/**
 * Build report.html from a run folder alone (results.json, transcripts, conversation.wav files), so the
 * report the run writes and one rebuilt later are the same. results.json is read a trial at a time and
 * each trial's details are packed as it passes: only the lean overview of each trial is kept.
 *
 * People's reviews (reviews.jsonl) are shown read-only; a reviews.jsonl that cannot be read is named among
 * the report's problems rather than keeping the report from being written. `served` builds the page
 * `crashlab view --review` serves, with the reviews and review mode it was given.
 */
export async function buildRunReport(runDir: string, redact: Redact = redactShapes, fresh = false, served?: Required<ReportExtras>): Promise<string> {
  const file = join(runDir, "results.json");
  const opened = openRunFile(runDir, "results.json");
  if (!opened) throw new RunFolderError(`${runDir} holds no results.json: pass the folder of one run (results/<run-id>), as printed at the end of \`crashlab run\``);
  const callerText = new Map<string, string>();
  const problems: string[] = [];
  const details: string[] = [];
  const lean: ReportTrial[] = [];
  const scan = scanResultsFile(opened);
  let header: Record<string, unknown>;
  try {
    for (let step = scan.next(), index = 0; ; step = scan.next(), index++) {
      if (step.done) {
        header = step.value.header;
        if (!step.value.has_trials) throw schemaError(file, { path: ["trials"], message: "expected an array of trials" });
        break;
      }
      const trial = fresh ? (JSON.parse(step.value) as ResultsFile["trials"][number]) : parseTrial(file, step.value, index);
      const source = await trialSource(runDir, trial);
      // Redacted before packing: text redaction cannot see inside the packed blocks.
      details.push(packTrial(redact(JSON.stringify(trialDetail(source)))));
      callerText.set(trial.trial_id, (source.transcript?.turns.find((t) => t.role === "user")?.text ?? "").slice(0, 200));
      problems.push(...source.problems.map((p) => `${trial.trial_id}: ${p}`));
      lean.push(reportTrial(trial));
    }
  } catch (error) {
    // A file that cannot be read is the machine's fault (said as such), not damage to the run folder.
    if (error instanceof RunFolderError || machineFault(error)) throw error;
    throw new RunFolderError(`${file} is not valid JSON (${shown((error as Error).message)}); the run folder is damaged — run again`);
  } finally {
    // Closes results.json when the walk stopped early.
    scan.return(undefined as never);
  }
  const doc = ResultsHeader.safeParse(header);
  if (!doc.success) throw schemaError(file, doc.error.issues[0]!);
  const extras = served ?? { reviews: staticReviews(runDir, doc.data.gates.config, problems), review_mode: null };
  const mode: PageMode = served ? "served" : "file";
  return redact(reportHtml(reportData({ ...doc.data, trials: lean }, callerText, problems, extras), details, mode));
}

function staticReviews(runDir: string, gateConfig: Readonly<Record<string, unknown>>, problems: string[]) {
  if (!statRunFile(runDir, REVIEWS_FILE)) return emptyReviewsView(gateConfig);
  try {
    return reviewsView(loadRunReviews(runDir), false);
  } catch (error) {
    if (!(error instanceof ReviewError)) throw error;
    problems.push(`${REVIEWS_FILE}: ${error.message}`);
    return emptyReviewsView(gateConfig);
  }
}

const ResultsHeader = ResultsFile.omit({ trials: true });
const schemaError = (file: string, issue: { path: PropertyKey[]; message: string }) =>
  new RunFolderError(`${file}, field ${shown(issue.path.map(String).join(".")) || "(root)"}: ${shown(issue.message, 300)}; it was written by another crashlab version or edited — run again with this version`);

function parseTrial(file: string, json: string, index: number): ResultsFile["trials"][number] {
  const row = ResultsTrial.safeParse(JSON.parse(json));
  if (!row.success) {
    const issue = row.error.issues[0]!;
    throw schemaError(file, { path: ["trials", index, ...issue.path], message: issue.message });
  }
  return row.data;
}

/**
 * `fresh`: results.json was written a moment ago by this process from rows it had validated, so its rows
 * are not validated again (the schema only checks: a valid row parses to itself).
 */
export async function writeRunReport(runDir: string, redact: Redact = redactShapes, fresh = false): Promise<string> {
  return writeRunFile(runDir, "report.html", await buildRunReport(runDir, redact, fresh));
}
