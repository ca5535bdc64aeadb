// The marks an author's saves leave on library levels: a level saved while
// its check proved it cannot be won ("unsolvable"), or while no win was
// known because a search stopped at its cap ("undecided"). Level select
// shows them on the level's card. Kept in localStorage (`miau.levelMarks`),
// like own-packs.js, so they hold for this browser only; every save of the
// level sets or clears its mark.

const MARKS_KEY = "miau.levelMarks";

/** What each mark says on a level card, and its longer explanation. */
export const MARK_WORDS = Object.freeze({
  unsolvable: {
    label: "Cannot be won",
    title: "Saved while its check proved that no moves win it. Edit it and save a winnable version.",
  },
  undecided: {
    label: "Not shown winnable",
    title: "Saved while no win was known: the check stopped at its cap. Win it in test-play or check it with a higher Cap.",
  },
});

function stored(storage) {
  try {
    const marks = JSON.parse((storage ?? globalThis.localStorage).getItem(MARKS_KEY) || "{}");
    return marks && typeof marks === "object" && !Array.isArray(marks) ? marks : {};
  } catch {
    return {}; // storage refused or damaged: no level is marked
  }
}

const keyOf = (packId, levelId) => `${packId}/${levelId}`;

/** The mark of library level `levelId` of pack `packId`: "unsolvable", "undecided" or null. */
export function levelMark(packId, levelId, storage = null) {
  const mark = stored(storage)[keyOf(packId, levelId)];
  return Object.hasOwn(MARK_WORDS, mark) ? mark : null;
}

/** Sets the mark of a library level (null clears it). */
export function setLevelMark(packId, levelId, mark, storage = null) {
  const marks = stored(storage);
  const key = keyOf(packId, levelId);
  if (mark) marks[key] = mark;
  else delete marks[key];
  try {
    (storage ?? globalThis.localStorage).setItem(MARKS_KEY, JSON.stringify(marks));
  } catch {
    // Only a reminder: the level itself is saved either way.
  }
}
