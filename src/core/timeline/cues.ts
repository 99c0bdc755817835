/**
 * What an utterance says, for procedure steps (RUN) and caller segment labels: the grader's names for the
 * shared English reader (src/core/language/reader.ts, compromise), kept here so every consumer reads speech
 * the same way. Questions, refusals, go-aheads, outcome reports and asked-for details are read with lemmas,
 * negation and word order, not single cue words; caller backchannels, goodbyes and spoken values are small
 * lists over the normalized text (a reader can see exactly why an utterance counted).
 */
import {
  asksFor as readerAsksFor,
  asksForGoAhead as readerAsksForGoAhead,
  AVAILABILITY_TERMS,
  CONSENT_TERMS,
  declines,
  FIELD_SYNONYMS,
  fieldTerms,
  givesGoAhead as readerGivesGoAhead,
  GO_AHEAD_REQUESTS,
  goAheadPhrase,
  isQuestion,
  mentionedIn,
  mentions,
  questionSentences as readerQuestionSentences,
  read,
  readOutcome,
  REFUSAL_EXPRESSIONS,
  sentencesOf,
  WH_WORDS,
  WITHHOLDING_TERMS,
} from "../language/reader";

/** String normalization: case folded, punctuation and symbols as spaces, whitespace collapsed (docs/grading.md). */
export function plainText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether `text` contains any of `phrases` as whole words of the normalized text (spoken values, goodbyes). */
export function containsPhrase(text: string, phrases: readonly string[]): string | null {
  const hay = ` ${plainText(text)} `;
  for (const phrase of phrases) {
    const needle = plainText(phrase);
    if (needle && hay.includes(` ${needle} `)) return phrase;
  }
  return null;
}

/** Sentences of an utterance, each with its own final punctuation ("What time? For how many?" is two). */
export function sentences(text: string): string[] {
  return sentencesOf(text);
}

// ── Questions ────────────────────────────────────────────────────────────────────────────────────
/**
 * Openers by which a sentence asks even when the transcript lost its "?": question words, requests for
 * information and stated needs (an auxiliary before its subject, "Would you…", asks too).
 */
export const QUESTION_OPENERS = [...WH_WORDS, "tell me", "let me know", "please tell me", "please give me", "i still need", "i need", "i'll need", "i just need", "i also need"] as const;

/** A sentence asks when it ends with "?" or reads as a question (the reader's `isQuestion`). */
export function isQuestionSentence(sentence: string): boolean {
  return isQuestion(sentence);
}

export function questionSentences(text: string): string[] {
  return readerQuestionSentences(text);
}

// ── Fields (clarification and correction steps) ──────────────────────────────────────────────────
export { FIELD_SYNONYMS };

/** Every word that names the field: its own synonyms, else its parts and their synonyms. */
export function fieldWords(field: string): string[] {
  return fieldTerms(field);
}

/** The field word a text mentions (any form: "reservations" names reservation), or null. */
export function mentionsField(text: string, field: string): string | null {
  return mentions(text, fieldTerms(field));
}

/**
 * The assistant asks the caller for the field: a question sentence that names it. A request for a
 * go-ahead ("Shall I book it for two people?") names details to confirm them, not to ask for them.
 */
export function asksFor(text: string, field: string): { sentence: string; word: string } | null {
  const asked = readerAsksFor(text, field);
  return asked ? { sentence: asked.sentence, word: asked.term } : null;
}

// ── Values (corrections, grounded confirmations) ─────────────────────────────────────────────────
const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"];
const ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth", "twentieth", "twenty first", "twenty second", "twenty third", "twenty fourth", "twenty fifth", "twenty sixth", "twenty seventh", "twenty eighth", "twenty ninth", "thirtieth", "thirty first"];

function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/**
 * How a value may be spoken: the value itself, a number as digits or a word, an ISO date as
 * "August 8" / "8th of August" / "August eighth", a 24-hour time as "7 pm" / "7:30" / "seven pm".
 */
export function spokenForms(value: string | number): string[] {
  const forms = new Set<string>([String(value)]);
  // Digits only (a number written plainly, or a string of digits): a whole number from zero up.
  const whole = /^\d+$/.test(String(value)) ? Number(value) : null;
  if (whole !== null && whole < NUMBER_WORDS.length) forms.add(NUMBER_WORDS[whole]!);
  // A number never reads as a date or a time (no dashes, no colon), so both look at String(value).
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value));
  if (date) {
    const month = MONTH_NAMES[Number(date[2]) - 1];
    const day = Number(date[3]);
    if (month && day >= 1 && day <= 31) {
      for (const d of [String(day), ordinalSuffix(day), ORDINAL_WORDS[day - 1]!]) {
        forms.add(`${month} ${d}`);
        forms.add(`${d} of ${month}`);
        forms.add(`the ${d} of ${month}`);
      }
    }
  }
  const time = /^(\d{1,2}):(\d{2})$/.exec(String(value));
  if (time) {
    const hour = Number(time[1]);
    const minutes = time[2]!;
    const h12 = hour % 12 === 0 ? 12 : hour % 12;
    const meridiem = hour < 12 ? ["am", "a m", "in the morning"] : ["pm", "p m", "in the evening", "at night"];
    for (const h of [String(h12), NUMBER_WORDS[h12]!]) {
      if (minutes === "00") {
        for (const m of [...meridiem, "o clock"]) forms.add(`${h} ${m}`);
      } else {
        forms.add(`${h} ${minutes}`);
        if (minutes === "30") forms.add(`half past ${h}`);
      }
    }
  }
  return [...forms];
}

/** The spoken form of `value` the text contains, or null. Booleans and objects are never "mentioned". */
export function mentionsValue(text: string, value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  if (typeof value === "string" && plainText(value).length < 2) return null;
  return containsPhrase(text, spokenForms(value));
}

// ── Corrections ──────────────────────────────────────────────────────────────────────────────────
/** Words by which a caller corrects themselves ("no, wait" matches "no wait"). The judge uses this list as is (docs/verifiers-and-clauses.md). */
export const CORRECTION_WORDS = ["sorry", "actually", "instead", "no wait", "wait no", "i mean", "scratch that", "make that", "correction", "on second thought", "change that"] as const;

/** Procedure steps also accept these, which callers use for a change of plan mid-conversation. */
export const CHANGE_WORDS = ["i meant", "make it", "change it", "change the", "rather", "switch it", "not the", "wrong"] as const;

const CORRECTION_CUES = [...CORRECTION_WORDS, ...CHANGE_WORDS];
/** "Sorry?" and "Sorry, what was that?" ask to hear it again; they correct nothing. */
const ASIDE_FROM_SORRY = CORRECTION_CUES.filter((w) => w !== "sorry");

/** The correction cue a caller line holds (as written, contractions expanded), or null. */
export function correctionCue(text: string): string | null {
  for (const s of read(text).sentences) {
    const cue = mentionedIn(s.words, s.question ? ASIDE_FROM_SORRY : CORRECTION_CUES, "exact");
    if (cue) return cue;
  }
  return null;
}

// ── Authorization ────────────────────────────────────────────────────────────────────────────────
/** In a yes/no question, these ask the caller for a go-ahead. */
export const CONSENT_REQUESTS = GO_AHEAD_REQUESTS;

/** Verbs that name an action in a question ("Cancel R-002?"), by the first word of a tool's name. */
export const ACTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  create: ["book", "reserve", "create", "make the reservation", "make the booking"],
  book: ["book", "reserve"],
  cancel: ["cancel", "cancellation"],
  update: ["change", "update", "modify", "move"],
  modify: ["change", "update", "modify", "move"],
  delete: ["delete", "remove"],
};

/** The words that name a tool's action: "cancel_reservation" → cancel, cancellation. */
export function actionWords(tool: string): string[] {
  const verb = tool.toLowerCase().split(/[_\s.-]/)[0]!; // split always gives at least one part
  return [...new Set([verb, ...(ACTION_WORDS[verb] ?? [])].filter(Boolean))];
}

/**
 * A sentence asking for a go-ahead: a yes/no question (not about information, "What name should I put it
 * under?") with a go-ahead request or the action's own words in any form ("booking" for "book").
 */
export function goAheadRequest(sentence: string, actionWords?: readonly string[]): string | null {
  for (const s of read(sentence).sentences) {
    const phrase = goAheadPhrase(s, actionWords);
    if (phrase) return phrase;
  }
  return null;
}

/** The assistant asks for a go-ahead in one of its sentences (`goAheadRequest`). */
export function asksForGoAhead(text: string, actionWords?: readonly string[]): string | null {
  return readerAsksForGoAhead(text, actionWords);
}

/** Words by which a caller gives the go-ahead. */
export const CONSENT_PHRASES = CONSENT_TERMS;

/** Any of these takes the go-ahead back (or never gives it): "No, wait…", "Hold on", "Hmm, not sure". */
export const WITHHOLDING_PHRASES = WITHHOLDING_TERMS;

/** The caller gives an explicit go-ahead: a consent term and nothing that withholds it. */
export function givesGoAhead(text: string): string | null {
  return readerGivesGoAhead(text);
}

// ── Refusals ─────────────────────────────────────────────────────────────────────────────────────
/** Fixed expressions that decline on their own (besides negated ability and permission, read by the reader). */
export const REFUSAL_PHRASES = REFUSAL_EXPRESSIONS;

/** The sentence in which the assistant declines (the reader's `declines`), or null. */
export function refuses(text: string): string | null {
  return declines(text);
}

// ── Outcomes (grounded confirmations) ────────────────────────────────────────────────────────────
/** Availability reports, which count as outcome reports either way (besides done forms of outcome verbs). */
export const OUTCOME_PHRASES = AVAILABILITY_TERMS;

/**
 * The words by which the assistant reports how a request turned out ("You're booked", "It's fully
 * booked"), or null; a question, a plan, an acknowledgement or a failed attempt ("I couldn't book it")
 * is not an outcome report.
 */
export function reportsOutcome(text: string): string | null {
  const outcome = readOutcome(text);
  return outcome && !outcome.negated ? outcome.phrase : null;
}

// ── Caller segment labels (docs/audio-and-metrics.md) ───────────────────────────────────────────────────────────────────
/** Short acknowledgements a caller makes while listening, besides the persona's own backchannels. */
export const BACKCHANNEL_TOKENS = ["mm", "mmm", "mhm", "mm hmm", "uh huh", "hmm", "right", "okay", "ok", "yeah", "yes", "yep", "sure", "i see", "got it", "go on", "alright", "ah", "oh", "gotcha"] as const;

/** A backchannel: one of the persona's phrases, or at most four words all from BACKCHANNEL_TOKENS. */
export function isBackchannelPhrase(text: string, personaPhrases?: readonly string[]): boolean {
  const plain = plainText(text);
  if (!plain) return false;
  if (personaPhrases?.some((p) => plainText(p) === plain)) return true;
  const tokens = new Set<string>(BACKCHANNEL_TOKENS.map(plainText));
  // Greedy over one- and two-word tokens ("mm hmm", "uh huh", "got it"); after the last word the pair
  // reads "<word> undefined", never a token.
  const words = plain.split(" ");
  if (words.length > 4) return false;
  for (let i = 0; i < words.length; ) {
    if (tokens.has(`${words[i]} ${words[i + 1]}`)) i += 2;
    else if (tokens.has(words[i]!)) i += 1;
    else return false;
  }
  return true;
}

/** Words by which a caller closes the call. */
export const FAREWELL_PHRASES = [
  "bye", "goodbye", "good bye", "have a good", "have a great", "have a nice", "have a lovely", "have a wonderful",
  "take care", "that's all", "that is all", "that's everything", "talk soon", "see you",
] as const;
const GRATITUDE_ONLY = new Set(["thanks", "thank", "you", "so", "much", "very", "a", "lot", "great", "perfect", "wonderful", "lovely", "ok", "okay", "alright", "cheers", "awesome", "good"]);

/** A farewell phrase, or an utterance of nothing but thanks ("Perfect, thank you so much."). */
export function saysGoodbye(text: string): string | null {
  const phrase = containsPhrase(text, FAREWELL_PHRASES);
  if (phrase) return phrase;
  const words = plainText(text).split(" ");
  const thanks = words.includes("thanks") || words.includes("thank");
  return thanks && words.every((w) => GRATITUDE_ONLY.has(w)) ? "thanks" : null;
}
