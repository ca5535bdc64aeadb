// Leaving the editor (Escape, or the top bar's way back) asks first when the
// draft holds work that is in no library: edits since the level was saved,
// or a level never saved at all. Nothing is lost by leaving (the draft and
// its undo history wait in localStorage), so the question says so; it only
// keeps an author from walking away thinking the level is saved.

import { confirmDialog } from "../dialog.js";

/**
 * Whether the editor may be left now: true at once when `draft` has no
 * unsaved work, else the author's answer (false also when `signal` aborts).
 */
export async function mayLeave(draft, signal) {
  draft.endStroke();
  if (!draft.hasUnsavedWork()) return true;
  const title = draft.level.title;
  return confirmDialog({
    title: "Leave with unsaved changes?",
    text: draft.pack.savedAs
      ? `Your changes to “${title}” since you last saved it are not in your library yet.`
      : `“${title}” is not saved to your library yet.`,
    details: "The draft and its undo history stay in the editor for when you come back.",
    confirm: "Leave",
    cancel: "Keep editing",
    signal,
  });
}

/**
 * What a click on the top bar's way back does: a plain click asks
 * (mayLeave) and then calls `leave()`; a click that opens the link
 * elsewhere (a new tab, a new window) keeps the link's own behaviour.
 */
export function backClick(event, { draft, signal, leave }) {
  if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  mayLeave(draft, signal).then((yes) => {
    if (yes && !signal.aborted) leave();
  });
}
