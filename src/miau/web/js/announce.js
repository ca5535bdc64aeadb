// The ARIA live region: says in words what a turn did, for players who
// cannot see the board. Every accepted move gets one short line: what moved
// and where, what it pushed, what stopped what; then the rules formed and
// broken, changes and losses (counted, never repeated), and the outcome. A
// refused move says what blocked it, once: holding a key against a wall does
// not say it again and again.

import { ruleText } from "./words.js";

const region = () => (typeof document === "undefined" ? null : document.getElementById("announcer"));

let clearTimer = null;

/** How long a line stays in the live region, so it is never read back stale. */
export const ANNOUNCE_CLEAR_MS = 8000;

/** Speaks `text` through the live region (repeating the same text works). */
export function say(text) {
  const live = region();
  if (!live || !text) return;
  clearTimeout(clearTimer);
  live.textContent = "";
  // A fresh text node in a later frame makes screen readers speak a repeat.
  requestAnimationFrame(() => {
    live.textContent = text;
  });
  clearTimer = setTimeout(() => {
    live.textContent = "";
  }, ANNOUNCE_CLEAR_MS);
}

/** "1 move", "2 moves": a count and its noun, singular for one. */
export function plural(count, noun, nouns = `${noun}s`) {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** "A", "A and B", "A, B and C". */
export function listText(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** The name of a thing or a word tile as said aloud: `ROCK`, `the word ROCK`. */
function nameOf(entity) {
  if (!entity) return "something";
  return entity.kind === "word" || (entity.noun === undefined && entity.text !== undefined)
    ? `the word ${entity.text}`
    : entity.noun;
}

/**
 * The entities named, grouped: things by noun with a count when several
 * ("2 ROCK"), word tiles together ("the words IS and YOU").
 */
export function namesText(entities) {
  const things = new Map();
  const words = [];
  for (const entity of entities) {
    if (!entity) continue;
    if (nameOf(entity).startsWith("the word ")) {
      if (!words.includes(entity.text)) words.push(entity.text);
    } else things.set(entity.noun, (things.get(entity.noun) || 0) + 1);
  }
  // Beside a counted noun every noun gets its count: "2 MIAU and 1 MOUSE", never "2 MIAU and MOUSE".
  const counting = things.size > 1 && [...things.values()].some((count) => count > 1);
  const parts = [...things].map(([noun, count]) => (count === 1 && !counting ? noun : `${count} ${noun}`));
  if (words.length === 1) parts.push(`the word ${words[0]}`);
  else if (words.length) parts.push(`the words ${listText(words)}`);
  return listText(parts);
}

function byId(state) {
  return new Map((state?.entities || []).map((entity) => [entity.id, entity]));
}

function blockerText(record, entities) {
  if (record.reason === "bounds" || record.blockerId === null || record.blockerId === undefined) return "the edge";
  return namesText([entities.get(record.blockerId)]);
}

function capitalised(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Sentences said once per kind with a count: `COG became BELL.`, `3 ROCK sank.` */
function counted(lines) {
  const counts = new Map();
  for (const line of lines) counts.set(line, (counts.get(line) || 0) + 1);
  return [...counts].map(([line, count]) => (count === 1 ? line : `${count} ${line}`));
}

/**
 * What each destroy cause of the engine (vocabulary.js DESTROY_CAUSES) says
 * happened; tests/web/announce.test.mjs checks that every cause has one.
 */
export const DESTRUCTION_VERBS = Object.freeze({
  sink: "sank",
  defeat: "was defeated",
  melt: "melted",
  weak: "broke",
  open: "opened",
  empty: "turned into nothing",
});

function destructionVerb(cause) {
  // A server newer than this page may send a cause it does not know yet.
  return DESTRUCTION_VERBS[cause] ?? `is gone (${String(cause).toUpperCase()})`;
}

/** What was destroyed, counted and said as a sentence: "ROCK sank.", "The word SINK sank.", "2 words WIN melted." */
function destroyedLines(records) {
  const counts = new Map();
  for (const record of records) {
    const key = JSON.stringify([record.noun ?? null, record.noun == null ? record.text : null, record.cause]);
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return [...counts].map(([key, count]) => {
    const [noun, text, cause] = JSON.parse(key);
    const one = destructionVerb(cause);
    const verb = count === 1 ? one : one.replace(/^was /, "were ").replace(/^is /, "are ");
    if (noun !== null) return count === 1 ? `${noun} ${verb}.` : `${count} ${noun} ${verb}.`;
    return count === 1 ? `The word ${text} ${verb}.` : `${count} words ${text} ${verb}.`;
  });
}

function directionOf(entry) {
  const dx = entry.to[0] - entry.from[0];
  const dy = entry.to[1] - entry.from[1];
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? "right" : "left";
  return dy > 0 ? "down" : "up";
}

/** What the player's own move did: one clause, without the outcome. */
function moveClause(event, state, previous, intent) {
  const before = byId(previous);
  const after = byId(state);
  const named = (id) => before.get(id) || after.get(id);
  const blocked = (event.blocked || []).map(
    (record) => `${namesText([named(record.id)])} blocked by ${blockerText(record, before)}`,
  );
  if (!event.accepted) {
    if (blocked.length) return `${capitalised(listText(counted(blocked)))}.`;
    return event.reason ? `${capitalised(event.reason)}.` : "";
  }
  if (event.kind === "undo") {
    return event.undoneRestart
      ? `Restart undone, back to move ${state.moveCount}.`
      : `Undone, back to move ${state.moveCount}.`;
  }
  if (event.kind === "reset") {
    return event.restartUndoable ? "Level restarted. Undo brings your moves back." : "Level restarted.";
  }
  if (event.kind !== "step") return "";
  const moved = (event.moved || []).filter(
    (record) => record.from?.[0] !== record.to?.[0] || record.from?.[1] !== record.to?.[1],
  );
  const record = new Map(moved.map((entry) => [entry.id, entry]));
  // A pushed thing belongs to the mover at the start of its push chain.
  const rootOf = (entry) => {
    let current = entry;
    for (let hops = 0; hops < moved.length; hops += 1) {
      if (current.pushedBy == null || !record.has(current.pushedBy)) break;
      current = record.get(current.pushedBy);
    }
    return current;
  };
  const groups = new Map(); // direction -> {movers, pushed}
  for (const entry of moved) {
    const root = rootOf(entry);
    const direction = directionOf(root);
    if (!groups.has(direction)) groups.set(direction, { movers: [], pushed: [] });
    const group = groups.get(direction);
    if (root === entry && entry.pushedBy == null) group.movers.push(named(entry.id));
    else group.pushed.push(named(entry.id));
  }
  const parts = [];
  if (intent?.intent !== "step") parts.push("waited");
  for (const [direction, group] of groups) {
    const who = group.movers.length ? namesText(group.movers) : "something";
    parts.push(
      group.pushed.length
        ? `${who} moved ${direction} and pushed ${namesText(group.pushed)}`
        : `${who} moved ${direction}`,
    );
  }
  if (intent?.intent === "step" && !groups.size) parts.push(`nothing moved ${intent.direction}`);
  if (blocked.length) parts.push(listText(counted(blocked)));
  return `Move ${state.moveCount}: ${parts.join(", ")}.`;
}

/**
 * The line a turn deserves: the move itself, then rules formed and broken,
 * changes, losses and spawns (each kind said once, with a count), then the
 * outcome. `previous` is the state before the turn (it names what moved,
 * and whether YOU was already gone); `intent` the intent sent (it gives the direction).
 */
export function describeTurn(event, state, previous = null, intent = null) {
  const lines = [];
  const clause = moveClause(event, state, previous, intent);
  if (clause) lines.push(clause);
  if (!event.accepted) return lines;
  if (event.kind === "undo" || event.kind === "reset") return lines;
  for (const rule of event.rulesAdded || []) lines.push(`Rule formed: ${ruleText(rule)}.`);
  for (const rule of event.rulesRemoved || []) lines.push(`Rule broken: ${ruleText(rule)}.`);
  lines.push(...counted((event.transformed || []).map((record) => `${record.from} became ${record.to}.`)));
  lines.push(...destroyedLines(event.destroyed || []));
  lines.push(
    ...counted((event.spawned || []).map((record) => `Left behind: ${record.noun ?? `the word ${record.text}`}.`)),
  );
  lines.push(...counted((event.created || []).map((record) => `${record.noun} appeared.`)));
  if (state.won) lines.push(`Solved in ${plural(state.moveCount, "move")}.`);
  else if (state.controlLost) {
    // Undo and restart help only when this turn lost YOU: a level with nothing YOU from
    // its start gets no advice that leads back to the same board.
    const lostNow = !previous || !previous.controlLost;
    lines.push(lostNow ? "Nothing is YOU. Undo or restart." : "Nothing is YOU.");
  }
  return lines;
}

/**
 * Speaks turns through `speak` (the live region by default). A refused move
 * with the same words as the last thing said is not said again.
 */
export class TurnAnnouncer {
  constructor({ speak = say } = {}) {
    this.speak = speak;
    this.last = null;
  }

  /** Says the level's title and its rules, when a level opens. */
  opened(title, state) {
    const rules = state.rules.map(ruleText);
    this.utter(rules.length ? `${title}. Rules: ${rules.join(". ")}.` : `${title}. No rules yet.`);
  }

  /** Says what a turn did (see describeTurn). */
  turn(event, state, previous = null, intent = null) {
    const text = describeTurn(event, state, previous, intent).join(" ");
    if (!text) return;
    if (!event.accepted && text === this.last) return;
    this.utter(text);
  }

  utter(text) {
    this.last = text;
    this.speak(text);
  }
}
