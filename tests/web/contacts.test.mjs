// Which contact rules a level has in force comes from its words (properties,
// automata, pairs) and the engine's sentences (vocabulary.js), never from
// sentences the client writes itself.

import assert from "node:assert/strict";
import { test } from "node:test";

import { contactSentences, contactsAbout, levelContacts, meetingRule, pairContact } from "../../src/miau/web/js/contacts.js";
import {
  CONTACT_FLOAT,
  CONTACT_MEETING,
  CONTACTS,
  CORE_PROPERTY_WORDS,
  TIER1_PROPERTY_WORDS,
} from "../../src/miau/web/js/vocabulary.js";
import { Vocabulary } from "../../src/miau/web/js/words.js";

const VOCABULARY_1_LEVEL = { properties: [...CORE_PROPERTY_WORDS, ...TIER1_PROPERTY_WORDS] };
const wordsOf = (contacts) => contacts.map((contact) => contact.words.join(" "));

test("a vocabulary-1 level has every built-in contact, OPEN with SHUT saying a thing both destroys itself", () => {
  const contacts = levelContacts(new Vocabulary(VOCABULARY_1_LEVEL));
  assert.deepEqual(wordsOf(contacts), wordsOf(CONTACTS));
  const [openShut] = contactsAbout(contacts, ["OPEN"]);
  assert.deepEqual(openShut.words, ["OPEN", "SHUT"]);
  assert.equal(openShut.itself, "A thing that is both OPEN and SHUT destroys itself.");
  assert.equal(contactSentences(openShut).at(-1), openShut.itself);
});

test("a core level has the core contacts only, shown for the words on its board", () => {
  const contacts = levelContacts(new Vocabulary({}));
  assert.deepEqual(wordsOf(contacts), ["SINK", "DEFEAT"]);
  assert.deepEqual(wordsOf(contactsAbout(contacts, ["ROCK", "IS", "SINK"])), ["SINK"]);
  assert.deepEqual(contactsAbout(contacts, ["ROCK", "IS", "YOU"]), []);
});

test("a Clockwork pair gets the pair sentences with its words, and a thing both sides is not destroyed alone", () => {
  const level = { pairs: [{ words: ["OPEN", "SHUT"], effect: "destroy-both", enter: true }] };
  const contacts = levelContacts(new Vocabulary(level));
  assert.deepEqual(wordsOf(contacts), ["OPEN SHUT", "SINK", "DEFEAT"]);
  const [pair] = contacts;
  assert.equal(pair.meeting, "OPEN and SHUT things that meet destroy each other, one for one.");
  assert.match(pair.itself, /^A thing that is both OPEN and SHUT is not destroyed alone/);
  assert.ok(pair.entering, "a pair that says enter lets its things into each other's cell");
  assert.equal(pairContact({ words: ["KEY", "LOCK"] }).entering, null);
  assert.doesNotMatch(contactSentences(pair).join(" "), /\{first\}|\{second\}/);
});

test("a word a level declares for itself never takes a built-in contact", () => {
  const level = { properties: [...CORE_PROPERTY_WORDS, "HOT", "MELT"], automata: [{ property: "HOT", pattern: ["L"] }] };
  assert.deepEqual(wordsOf(levelContacts(new Vocabulary(level))), ["SINK", "DEFEAT"]);
});

test("every word of the engine's contacts is a property word of the engine", () => {
  const properties = new Set([...CORE_PROPERTY_WORDS, ...TIER1_PROPERTY_WORDS]);
  for (const contact of CONTACTS) {
    for (const word of [...contact.words, ...(contact.both || [])]) assert.ok(properties.has(word), word);
    assert.ok(contact.meeting.endsWith("."), contact.words.join(" "));
  }
});

test("the meeting rule names FLOAT's layer only where FLOAT is on the board", () => {
  const vocabulary = new Vocabulary(VOCABULARY_1_LEVEL);
  assert.equal(meetingRule(vocabulary, ["OPEN"]), CONTACT_MEETING);
  assert.equal(meetingRule(vocabulary, ["OPEN", "FLOAT"]), `${CONTACT_MEETING} ${CONTACT_FLOAT}`);
  assert.equal(meetingRule(new Vocabulary({}), ["FLOAT"]), CONTACT_MEETING);
});
