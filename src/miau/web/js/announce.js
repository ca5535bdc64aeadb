// The ARIA live region: says in words what a turn did (rules formed and
// broken, destruction, loss, win), for players who cannot see the board.

import { ruleText } from "./words.js";

const region = () => document.getElementById("announcer");

let clearTimer = null;

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
  }, 8000);
}


function destructionText(record) {
  const name = record.noun ?? `the word ${record.text}`;
  if (record.cause === "sink") return `${name} sank.`;
  if (record.cause === "defeat") return `${name} was defeated.`;
  if (record.cause === "melt") return `${name} melted.`;
  if (record.cause === "weak") return `${name} broke.`;
  if (record.cause === "open") return `${name} opened.`;
  return `${name} is gone (${String(record.cause).toUpperCase()}).`;
}

/** The sentences a turn deserves, in the order they matter to the player. */
export function describeTurn(event, state) {
  const lines = [];
  if (!event.accepted) return lines;
  if (event.kind === "undo") lines.push(`Undone, back to move ${state.moveCount}.`);
  if (event.kind === "reset") lines.push("Level restarted.");
  for (const rule of event.rulesAdded || []) lines.push(`Rule formed: ${ruleText(rule)}.`);
  for (const rule of event.rulesRemoved || []) lines.push(`Rule broken: ${ruleText(rule)}.`);
  for (const record of event.transformed || []) lines.push(`${record.from} became ${record.to}.`);
  for (const record of event.destroyed || []) lines.push(destructionText(record));
  for (const record of event.spawned || []) lines.push(`It left a ${record.noun ?? `${record.text} word`}.`);
  if (state.won) lines.push(`Solved in ${state.moveCount} moves.`);
  else if (state.controlLost) lines.push("Nothing is YOU. Undo or restart.");
  return lines;
}

/** Speaks what a turn did, if anything worth saying. */
export function announceTurn(event, state) {
  const lines = describeTurn(event, state);
  if (lines.length) say(lines.join(" "));
}
