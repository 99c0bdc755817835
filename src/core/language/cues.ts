/**
 * Phrases over the normalized text, for procedure steps (RUN), caller segment labels and the judge: spoken
 * forms of a value, correction cues, backchannels and goodbyes, the words that name a tool's action and
 * a field. Each is a small list a reader can check; questions, refusals, go-aheads and outcome reports
 * are read by ./reader (lemmas, negation, word order), which these build on.
 */
import { fieldTerms, mentionedIn, mentions, read, readOutcome } from "./reader";
import { effectOf, GENERIC, verbsOf, type Lexicon } from "./vocabulary";

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

// ── Fields (correction steps) ────────────────────────────────────────────────────────────────────
/** The field word a text mentions (any form: "numbers" names number), or null. */
export function mentionsField(text: string, field: string, lexicon: Lexicon = GENERIC): string | null {
  return mentions(text, fieldTerms(field, lexicon));
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
/**
 * The words that name a tool's action in a question ("Cancel R-002?"): the first word of its name and
 * every verb of its effect (the one it declares, else its name's: ./vocabulary); for a create also "make
 * the <record>" ("make the reservation" where a package names its records so).
 */
export function actionWords(tool: string, lexicon: Lexicon = GENERIC): string[] {
  const verb = tool.toLowerCase().split(/[_\s.-]/)[0]!; // split always gives at least one part
  const effect = effectOf(lexicon, tool);
  const verbs = effect ? verbsOf(lexicon, effect) : [];
  const makes = effect === "create" ? lexicon.nouns.map((n) => `make the ${n}`) : [];
  return [...new Set([verb, ...verbs, ...makes].filter(Boolean))];
}

// ── Outcomes (grounded confirmations) ────────────────────────────────────────────────────────────
/**
 * The words by which the assistant reports how a request turned out ("It's cancelled", "It's not
 * available"; "You're booked" where book is the package's verb), or null; a question, a plan, an
 * acknowledgement or a failed attempt ("I couldn't cancel it") is not an outcome report.
 */
export function reportsOutcome(text: string, lexicon: Lexicon = GENERIC): string | null {
  const outcome = readOutcome(text, lexicon);
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
