// What happens when things meet, in the engine's own sentences: which of
// the contacts of miau.engine.vocabulary (vocabulary.js: CONTACTS, and
// PAIR_CONTACT for a level's Clockwork pairs) a level has in force, for the
// words panel, its new-word notices and the editor's glossary. The
// sentences are never written here, only chosen and filled in.

import { CONTACT_FLOAT, CONTACT_MEETING, CONTACTS, PAIR_CONTACT } from "./vocabulary.js";

// The property whose layer rule every contact follows (vocabulary-1's FLOAT).
const LAYER_WORD = "FLOAT";

function filled(template, first, second) {
  return template.replaceAll("{first}", first).replaceAll("{second}", second);
}

/**
 * The contact of one Clockwork pair (`{words: [first, second], enter}` of
 * `level.pairs`): PAIR_CONTACT filled in with its words, its `entering`
 * sentence only when the pair says `enter`.
 */
export function pairContact(pair) {
  const [first, second] = pair.words;
  return {
    words: [first, second],
    meeting: filled(PAIR_CONTACT.meeting, first, second),
    entering: pair.enter === true ? PAIR_CONTACT.entering : null,
    both: [first, second],
    itself: filled(PAIR_CONTACT.itself, first, second),
  };
}

/**
 * The contacts in force in the level of `vocabulary` (a words.js
 * Vocabulary), in the order the turn resolves them: one per Clockwork pair,
 * then each built-in contact whose words are all properties there and none
 * of them given a meaning of its own by the level (an automaton's or a
 * pair's word is not the built-in word). Each is `{words, meeting,
 * entering, both, itself}` as vocabulary.js gives it (absent parts null).
 */
export function levelContacts(vocabulary) {
  const builtIn = CONTACTS.filter((contact) =>
    contact.words.every((word) => vocabulary.properties.has(word) && !vocabulary.ownWords.has(word)),
  );
  return [...vocabulary.pairs.map(pairContact), ...builtIn];
}

/** Those of `contacts` about a word among `words` (say, the word tiles on the board). */
export function contactsAbout(contacts, words) {
  const here = new Set(words);
  return contacts.filter((contact) => contact.words.some((word) => here.has(word)));
}

/**
 * When things meet in the level of `vocabulary`: the sentence every contact
 * builds on, with FLOAT's layer rule when the built-in FLOAT is among
 * `words` (the word tiles on the board; without the word nothing floats).
 */
export function meetingRule(vocabulary, words) {
  const layered =
    words.includes(LAYER_WORD) && vocabulary.properties.has(LAYER_WORD) && !vocabulary.ownWords.has(LAYER_WORD);
  return layered ? `${CONTACT_MEETING} ${CONTACT_FLOAT}` : CONTACT_MEETING;
}

/** A contact's sentences in reading order: the meeting, what it changes in movement, a thing alone. */
export function contactSentences(contact) {
  return [contact.meeting, contact.entering, contact.itself].filter(Boolean);
}
