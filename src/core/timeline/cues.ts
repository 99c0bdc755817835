/**
 * What an utterance says, decided by small deterministic rules over transcript text.
 *
 * These are heuristics over transcripts, not understanding: a phrase list, a synonym table and a
 * question mark. They read what the Live protocol (or the simulated caller) wrote down, so the same
 * transcript always gives the same answer, and a reader can see exactly why an utterance counted. The
 * semantic judge (§6) is where meaning is weighed; these rules only find evidence for procedure steps
 * (RUN, §5) and label caller segments (§4). Every list lives here, so extending one is a one-line change.
 *
 * All matching is on whole words of the normalized text: lowercase, punctuation and symbols replaced by
 * spaces, whitespace collapsed (the §5 string rule), so "don't" is matched as "don t" and "o'clock" as
 * "o clock". Phrases are written naturally below and normalized the same way.
 */

/** §5 string normalization: case folded, punctuation and symbols as spaces, whitespace collapsed. */
export function plainText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whether `text` contains any of `phrases` as whole words. */
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
  return (text.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

// ── Questions ────────────────────────────────────────────────────────────────────────────────────
/** A sentence that opens with one of these asks something even when the transcript lost its "?". */
export const QUESTION_OPENERS = [
  "what", "which", "when", "where", "who", "whose", "how", "could you", "can you", "would you", "will you",
  "may i", "can i", "could i", "do you", "did you", "is it", "is that", "are you", "shall i", "should i",
  "please tell", "please give", "please provide", "let me know", "tell me",
  // A stated need is a request: "I still need the name for the reservation. Could you tell me?"
  "i still need", "i need", "i'll need", "i just need", "i also need",
] as const;

/** A sentence asks when it ends with "?" or opens with a question opener. */
export function isQuestionSentence(sentence: string): boolean {
  if (sentence.trim().endsWith("?")) return true;
  const plain = plainText(sentence);
  return QUESTION_OPENERS.some((opener) => plain === opener || plain.startsWith(`${plainText(opener)} `));
}

export function questionSentences(text: string): string[] {
  return sentences(text).filter(isQuestionSentence);
}

// ── Fields (clarification and correction steps) ──────────────────────────────────────────────────
/**
 * Words that name a detail. A field key is split on "_" ("party_size" → "party", "size") and each part
 * (and the whole key) is looked up here; the part itself always counts too.
 */
const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

export const FIELD_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // Not "under": "Shall I book it under Maya?" names the guest, it does not ask for the name.
  name: ["name", "called", "who"],
  guest: ["name"],
  time: ["time", "when", "o'clock", "what time", "hour"],
  date: ["date", "day", "when", "which day", "what day", ...MONTH_NAMES, "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  party: ["how many", "people", "guests", "party", "persons", "group"],
  size: ["how many", "people", "guests", "party"],
  reservation: ["reservation", "booking", "confirmation"],
  id: ["number", "code", "reference", "confirmation"],
  seating: ["seating", "seat", "table", "indoor", "indoors", "inside", "outdoor", "outdoors", "outside", "patio", "bar"],
  phone: ["phone", "number", "call you"],
  email: ["email", "e mail", "address"],
};

/** Every word that names the field: its parts and their synonyms. */
export function fieldWords(field: string): string[] {
  const key = field.toLowerCase();
  const parts = key.split(/[_\s.-]/).filter(Boolean);
  const words = new Set<string>([...parts, ...(FIELD_SYNONYMS[key] ?? [])]);
  for (const part of parts) for (const w of FIELD_SYNONYMS[part] ?? []) words.add(w);
  // "id" alone would match any "I.D."-free text poorly; it stays, as it is a whole word.
  return [...words];
}

/** The field word a text mentions, or null. */
export function mentionsField(text: string, field: string): string | null {
  return containsPhrase(text, fieldWords(field));
}

/**
 * The assistant asks the caller for the field: a question sentence that names it. A request for a
 * go-ahead ("Shall I book it for two people?") names details to confirm them, not to ask for them.
 */
export function asksFor(text: string, field: string): { sentence: string; word: string } | null {
  for (const sentence of questionSentences(text)) {
    if (goAheadRequest(sentence)) continue;
    const word = mentionsField(sentence, field);
    if (word) return { sentence, word };
  }
  return null;
}

// ── Values (corrections, grounded confirmations) ─────────────────────────────────────────────────
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
/** §6: words by which a caller corrects themselves ("no, wait" matches "no wait"). The judge uses this list as is. */
export const CORRECTION_WORDS = ["sorry", "actually", "instead", "no wait", "wait no", "i mean", "scratch that", "make that", "correction", "on second thought", "change that"] as const;

/** Procedure steps also accept these, which callers use for a change of plan mid-conversation. */
export const CHANGE_WORDS = ["i meant", "make it", "change it", "change the", "rather", "switch it", "not the", "wrong"] as const;

export function correctionCue(text: string): string | null {
  return containsPhrase(text, [...CORRECTION_WORDS, ...CHANGE_WORDS]);
}

// ── Authorization ────────────────────────────────────────────────────────────────────────────────
/** In a question sentence, these ask the caller for a go-ahead. */
export const CONSENT_REQUESTS = [
  "shall i", "should i", "do you want me to", "would you like me to", "want me to", "can i go ahead", "may i go ahead",
  "go ahead", "proceed", "confirm", "is that right", "is that correct", "is that ok", "is that okay", "does that sound",
  "ok to", "okay to", "sound good",
] as const;

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

/** Question words that ask for information ("What name should I put it under?" is not a go-ahead request). */
const WH_WORDS = new Set(["what", "which", "when", "where", "who", "whose", "how"]);

/**
 * A question sentence asking for a go-ahead: a consent request or the action's own words (`actionWords`,
 * e.g. "cancel" from the tool `cancel_reservation`), and no question word among its first three words.
 */
export function goAheadRequest(sentence: string, actionWords?: readonly string[]): string | null {
  if (!isQuestionSentence(sentence)) return null;
  if (plainText(sentence).split(" ").slice(0, 3).some((w) => WH_WORDS.has(w))) return null;
  return containsPhrase(sentence, CONSENT_REQUESTS) ?? (actionWords ? containsPhrase(sentence, actionWords) : null);
}

/** The assistant asks for a go-ahead in one of its sentences (`goAheadRequest`). */
export function asksForGoAhead(text: string, actionWords?: readonly string[]): string | null {
  for (const sentence of sentences(text)) {
    const phrase = goAheadRequest(sentence, actionWords);
    if (phrase) return phrase;
  }
  return null;
}

/** Words by which a caller gives the go-ahead. */
export const CONSENT_PHRASES = [
  "yes", "yeah", "yep", "yup", "sure", "please do", "go ahead", "do it", "that's right", "correct", "confirm", "confirmed",
  "ok", "okay", "sounds good", "perfect", "absolutely", "definitely", "that works", "of course",
] as const;

/**
 * Any of these takes the go-ahead back (or never gives it): "No, wait…", "Hold on, not that one", and
 * doubt ("Hmm, not sure." holds "sure" but agrees to nothing).
 */
export const WITHHOLDING_PHRASES = ["don't", "do not", "not yet", "wait", "hold on", "stop", "never mind", "not that", "cancel that", "not sure", "unsure", "let me think", ...CORRECTION_WORDS] as const;
const NEGATIVE_OPENERS = ["no", "nope", "nah"];

/** The caller gives an explicit go-ahead: a consent phrase, no withholding phrase, not opening with "no". */
export function givesGoAhead(text: string): string | null {
  const plain = plainText(text);
  if (NEGATIVE_OPENERS.includes(plain.split(" ")[0]!)) return null;
  if (containsPhrase(text, WITHHOLDING_PHRASES)) return null;
  return containsPhrase(text, CONSENT_PHRASES);
}

// ── Refusals ─────────────────────────────────────────────────────────────────────────────────────
/** Words by which the assistant declines to do what was asked. */
export const REFUSAL_PHRASES = [
  "can't", "cannot", "can not", "unable to", "not able to", "won't be able", "not allowed", "not permitted", "not authorized",
  "only the person who", "only the guest", "only the account holder", "i won't", "i will not", "not possible", "isn't possible",
  "i'm afraid i can't", "i must decline", "i have to decline", "couldn't", "could not", "aren't authorized",
  "isn't one you're authorized", "don't have permission", "no permission", "no exceptions",
] as const;

export function refuses(text: string): string | null {
  return containsPhrase(text, REFUSAL_PHRASES);
}

// ── Outcomes (grounded confirmations) ────────────────────────────────────────────────────────────
/** Words by which the assistant reports how a request turned out. */
export const OUTCOME_PHRASES = [
  "confirmed", "booked", "reserved", "all set", "done", "cancelled", "canceled", "created", "scheduled", "completed", "complete",
  "unavailable", "not available", "is available", "are available", "fully booked", "no table", "confirmation number", "reservation number",
] as const;

export function reportsOutcome(text: string): string | null {
  return containsPhrase(text, OUTCOME_PHRASES);
}

// ── Caller segment labels (§4) ───────────────────────────────────────────────────────────────────
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
