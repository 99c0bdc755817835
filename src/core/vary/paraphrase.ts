/**
 * A seeded, domain-free paraphraser for assistant lines: rewording sentences (synonym frames, contractions,
 * politeness, openers and fillers), reordering sentences where that is safe, splitting and joining
 * sentences, a preamble, longer answers. It knows English function words, never a domain's words, and
 * keeps every value a line carries as it was written (other spoken forms of values are ./values.ts).
 */
import { choose } from "./seeded";
import { findValues } from "./values";

/** Sentences of a line: split after . ? ! before a capital, so "7 p.m. on" stays whole. */
export function sentences(text: string): string[] {
  return text.trim().split(/(?<=[.?!])\s+(?=[A-Z])/).filter((s) => s.length > 0);
}

/** Words that may lose their capital when something is put before them (never a name, never "I"). */
const COMMON_OPENERS = new Set(
  (
    "the a an you you're you've you'll your we we're we've we'll our it it's its that that's this these those there there's here here's what what's which when where who how " +
    "would shall should do does did is are was were can could will let one just good great thank thanks sorry unfortunately please all before after to so okay " +
    "sure yes no hello hi welcome done only now then also every each some any nothing everything something if as for on at in by with from about " +
    "happy glad perfect certainly absolutely understood noted got may might must need have has had give take make tell check look find goodbye bye"
  ).split(" "),
);

/** `text` with its first letter lowered when its first word is a common word (names keep their capital). */
export function lowerFirst(text: string): string {
  const word = /^[A-Za-z']+/.exec(text)?.[0] ?? "";
  return COMMON_OPENERS.has(word.toLowerCase()) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Groups of interchangeable phrases (longest first over all groups, so a longer frame wins). */
const FRAMES: string[][] = [
  ["Would you like me to", "Do you want me to", "Shall I", "Should I"],
  ["How can I help you", "How may I help you", "What can I do for you"],
  ["How can I help", "How may I help", "What can I help with"],
  ["Is there anything else", "Is there something else"],
  ["Could you tell me", "Can you tell me", "Would you tell me"],
  ["Would you like", "Do you want", "Would you prefer"],
  ["I'd be happy to", "I'd be glad to", "I'll gladly"],
  ["I can't", "I cannot", "I'm unable to", "I'm not able to"],
  ["I won't", "I will not", "I'm not going to"],
  ["I'm sorry", "I apologize", "My apologies"],
  ["Unfortunately", "Sadly", "Regrettably"],
  ["Good news", "Great news", "Happily"],
  ["One moment", "Just a moment", "Give me a moment"],
  ["Let me", "Allow me to", "I'll just"],
  ["Thank you", "Thanks", "Many thanks"],
  ["You're welcome", "My pleasure", "Happy to help"],
  ["Goodbye", "Bye", "Bye now"],
  ["go ahead and", "proceed to", "now"],
  ["right now", "at the moment", "just now"],
  ["still need", "still require", "still have to get"],
  ["Got it", "Understood", "Noted"],
  ["I can", "I'm able to", "I am able to"],
];
const FRAME_LIST = FRAMES.flatMap((group, g) => group.map((phrase) => ({ phrase, g }))).sort((a, b) => b.phrase.length - a.phrase.length);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const phraseAt = (phrase: string) => new RegExp(`(?<![\\w'])${escape(phrase)}(?![\\w'])`, "i");

/** A synonym frame: the first (longest) known phrase in the sentence said with another of its group. */
function synonym(sentence: string, pick: (n: number) => number): string | null {
  for (const { phrase, g } of FRAME_LIST) {
    const m = phraseAt(phrase).exec(sentence);
    if (!m) continue;
    const others = FRAMES[g]!.filter((p) => p.toLowerCase() !== phrase.toLowerCase());
    let other = others[pick(others.length)]!;
    other = m.index === 0 ? upperFirst(other) : other === other.toUpperCase() || /^I\b|^I'/.test(other) ? other : other.charAt(0).toLowerCase() + other.slice(1);
    return sentence.slice(0, m.index) + other + sentence.slice(m.index + m[0].length);
  }
  return null;
}

/** Contraction pairs: written out ↔ contracted. */
const CONTRACTIONS: Array<[string, string]> = [
  ["I am", "I'm"],
  ["I will", "I'll"],
  ["I would", "I'd"],
  ["I have", "I've"],
  ["you are", "you're"],
  ["you have", "you've"],
  ["we are", "we're"],
  ["it is", "it's"],
  ["that is", "that's"],
  ["there is", "there's"],
  ["what is", "what's"],
  ["do not", "don't"],
  ["does not", "doesn't"],
  ["is not", "isn't"],
  ["are not", "aren't"],
  ["cannot", "can't"],
  ["will not", "won't"],
  ["let us", "let's"],
];

/** Contract what is written out, or write out what is contracted (the first pair that applies, either way). */
function contraction(sentence: string, pick: (n: number) => number): string | null {
  const pairs = CONTRACTIONS.flatMap(([long, short]) => [
    { from: short, to: long },
    { from: long, to: short },
  ]);
  const found = pairs.filter((p) => phraseAt(p.from).test(sentence));
  if (found.length === 0) return null;
  const { from, to } = found[pick(found.length)]!;
  return sentence.replace(phraseAt(from), (m) => (m[0] === m[0]!.toUpperCase() && m[0] !== "I" ? upperFirst(to) : to));
}

/** Politeness: "please" in a request, "if you don't mind" before a question, a warmer thanks. */
function politeness(sentence: string, pick: (n: number) => number): string | null {
  const request = /\b(Could|Can|Would) you (?!please)/.exec(sentence);
  if (request && !/\blike\b|\bprefer\b|\bwant\b/.test(sentence)) return sentence.replace(request[0], `${request[0]}please `);
  if (sentence.endsWith("?")) {
    const lead = ["If you don't mind, ", "If I may ask, ", "Just to check, "][pick(3)]!;
    return `${lead}${lowerFirst(sentence)}`;
  }
  if (/^Thank you\b/.test(sentence) && !/Thank you (so|very) much/.test(sentence)) return sentence.replace(/^Thank you/, ["Thank you so much", "Thank you very much"][pick(2)]!);
  return null;
}

const OPENERS = ["Okay, ", "Alright, ", "All right, ", "Sure, ", "Right, "];
const SOFT_OPENERS = ["Well, ", "So, ", "Now, ", "Hmm, "];
const NEGATIVE = /\b(sorry|afraid|unfortunately|can't|cannot|won't|not|no|unable|apolog)/i;

/** An opener or filler before the sentence ("Okay, …", "Well, …"); a negative sentence gets only a soft one. */
function opener(sentence: string, pick: (n: number) => number): string {
  const list = NEGATIVE.test(sentence) ? SOFT_OPENERS : [...OPENERS, ...SOFT_OPENERS];
  const usable = list.filter((o) => !sentence.toLowerCase().startsWith(o.slice(0, -2).toLowerCase()));
  return `${usable[pick(usable.length)]!}${lowerFirst(sentence)}`;
}

export type RewordingKind = "synonym" | "contraction" | "politeness" | "opener";

/**
 * One sentence reworded: a seeded choice among the rewordings that apply (an opener always does), so
 * every sentence has at least three rewordings and the same seed gives the same one.
 */
export function rewordSentence(sentence: string, seed: number): { text: string; how: RewordingKind } {
  const pick = (what: string) => (n: number) => choose(seed, `${what}|${sentence}`, n);
  const candidates: Array<{ how: RewordingKind; text: string | null }> = [
    { how: "synonym", text: synonym(sentence, pick("synonym")) },
    { how: "contraction", text: contraction(sentence, pick("contraction")) },
    { how: "politeness", text: politeness(sentence, pick("politeness")) },
  ];
  const usable = candidates.filter((c): c is { how: RewordingKind; text: string } => c.text !== null && c.text !== sentence);
  // An opener is always possible; it is chosen as often as each other rewording that applies.
  const choice = choose(seed, `how|${sentence}`, usable.length + 1);
  if (choice < usable.length) return usable[choice]!;
  return { text: opener(sentence, pick("opener")), how: "opener" };
}

/** A sentence that may change places with its neighbour: a statement with no value and no question. */
function movable(sentence: string): boolean {
  return !sentence.endsWith("?") && findValues(sentence).length === 0 && !/\d/.test(sentence);
}

/**
 * A line reworded sentence by sentence; where two neighbouring sentences are both movable (statements
 * without values, the closing question left last), the seed may swap them.
 */
export function reword(text: string, seed: number): { text: string; hows: RewordingKind[]; reordered: boolean } {
  const parts = sentences(text).map((s) => rewordSentence(s, seed));
  const out = parts.map((p) => p.text);
  let reordered = false;
  for (let i = 0; i + 1 < out.length; i++) {
    if (movable(out[i]!) && movable(out[i + 1]!) && choose(seed, `swap|${text}|${i}`, 2) === 0) {
      [out[i], out[i + 1]] = [upperFirst(out[i + 1]!), upperFirst(out[i]!)];
      reordered = true;
      i++;
    }
  }
  return { text: out.join(" "), hows: parts.map((p) => p.how), reordered };
}

/**
 * Sentences split and joined: two neighbouring sentences joined into one ("A, and b." / "A; b."), or a
 * sentence split at its colon or semicolon into two. Null when the line has neither.
 */
export function splitOrJoin(text: string, seed: number): { text: string; how: "split" | "joined" } | null {
  const parts = sentences(text);
  const splittable = parts.map((s, i) => ({ s, i, at: s.search(/[:;] (?=\S)/) })).filter((p) => p.at > 0 && !/\d$/.test(p.s.slice(0, p.at)));
  const joinable = parts.slice(0, -1).map((s, i) => i).filter((i) => /\.$/.test(parts[i]!) && !/\b[ap]\.m\.$/.test(parts[i]!));
  const options = [...splittable.map((p) => ({ how: "split" as const, i: p.i, at: p.at })), ...joinable.map((i) => ({ how: "joined" as const, i, at: -1 }))];
  if (options.length === 0) return null;
  const o = options[choose(seed, `splitjoin|${text}`, options.length)]!;
  const out = [...parts];
  if (o.how === "split") {
    const s = parts[o.i]!;
    out[o.i] = `${s.slice(0, o.at)}. ${upperFirst(s.slice(o.at + 2))}`;
  } else {
    const glue = [", and ", "; ", " — "][choose(seed, `glue|${text}`, 3)]!;
    out.splice(o.i, 2, `${parts[o.i]!.slice(0, -1)}${glue}${lowerFirst(parts[o.i + 1]!)}`);
  }
  return { text: out.join(" "), how: o.how };
}

/** Friendly sentences with no value, question, claim or refusal in them. */
export const PADDING = [
  "I'm glad to help with that.",
  "Thanks for your patience while we sort this out.",
  "It's always a pleasure to hear from you.",
  "I want to make sure everything is just right for you.",
  "We really appreciate you calling us.",
  "I hope you're having a lovely day so far.",
  "It's no trouble at all.",
];

/** A preamble sentence put before the line. */
export const PREAMBLES = ["Sure thing.", "Absolutely.", "Of course.", "Thanks for bearing with me.", "Right then.", "Okay."];

export function withPreamble(text: string, seed: number): string {
  return `${PREAMBLES[choose(seed, `preamble|${text}`, PREAMBLES.length)]!} ${text}`;
}

/** Padding sentences a longer line gains at most: about six seconds of speech, so a long line stays within a response timeout. */
export const MAX_PADDING = 2;

/**
 * The line longer: padding sentences added until it is about twice as long, at most `MAX_PADDING` of them (a
 * variant that only outlasts the harness's response timeout tests the timeout, not the grader); a closing
 * question kept last (it is what the caller answers).
 */
export function longer(text: string, seed: number): string {
  const parts = sentences(text);
  const extra: string[] = [];
  let at = choose(seed, `padding|${text}`, PADDING.length);
  while (extra.join(" ").length < text.length && extra.length < MAX_PADDING) extra.push(PADDING[at++ % PADDING.length]!);
  const question = parts.at(-1)?.endsWith("?") ? parts.pop()! : undefined;
  return [...parts, ...extra, ...(question ? [question] : [])].join(" ");
}
