// `#/edit/PACK/LEVEL`: a copy of that level becomes the draft, as one
// undoable edit, and the address becomes `#/edit` (a reload then resumes
// the copy instead of copying the level again). A level of the author's own
// pack is not a copy: it keeps its id and saves back into its pack. A link
// is anyone's to make: when the stored draft holds work that is in no
// library, and is not this very level, the player is asked first, and keeps
// it unless they choose to replace it.

import { confirmDialog } from "../dialog.js";
import { isOwnPack } from "../own-packs.js";
import { hasUnsavedWork, loadStoredPack, normalisePack, sameLevel } from "./draft.js";

/** The manifest a copied level gets: saving it must not aim at the shipped or imported pack it came from. */
export function copyManifest(onePack) {
  const manifest = { id: "draft", name: "Draft", version: "1.0.0", engine: 1 };
  if (onePack.manifest.features) manifest.features = onePack.manifest.features;
  return manifest;
}

/**
 * Makes a copy of `level` of `pack` the draft: `cameFrom` remembers where
 * it came from, `api` fetches it as a one-level pack, `draft` takes it,
 * `toast` says what happened, `history` forgets the level's address.
 */
export async function openLevelCopy({ pack, level }, { api, draft, cameFrom, toast, history, signal }) {
  cameFrom.remember(pack, level);
  try {
    const onePack = await api.levelPack(pack, level);
    if (signal.aborted) return;
    const copy = { ...onePack, manifest: copyManifest(onePack) };
    if (replacingLosesWork(copy) && !(await askToReplace(onePack.levels[0].title, signal))) {
      if (!signal.aborted) {
        toast("Your draft is kept; the level was not copied.");
        history.replaceState(null, "", "#/edit");
      }
      return;
    }
    if (signal.aborted) return;
    // The very level again is no edit: undo must not stop at a step that changes nothing.
    if (!sameLevel(draft.pack, normalisePack(copy))) draft.replace(copy);
    if (isOwnPack(pack)) {
      // The author's own level: it keeps its id (a new title renames it) and saving puts it back.
      draft.markSaved(pack, level);
      toast(`Editing “${onePack.levels[0].title}” of your pack ${pack}.`);
    } else {
      draft.markOpened(pack, level);
      toast(`Editing a copy of “${onePack.levels[0].title}”. Saving puts it in your library.`);
    }
  } catch (error) {
    if (signal.aborted) return;
    toast(error?.message || "That level could not be opened.", { tone: "error" });
  }
  // The copy is the draft now: a reload must resume it, not copy the level again.
  history.replaceState(null, "", "#/edit");
}

/**
 * Whether making `copy` the draft would put work out of sight: the stored
 * draft holds work that is in no library (not the empty starter level, not
 * an untouched copy, not a saved level unchanged since) and is not this
 * very level already.
 */
function replacingLosesWork(copy) {
  const stored = loadStoredPack();
  return Boolean(stored) && hasUnsavedWork(stored) && !sameLevel(stored, normalisePack(copy));
}

function askToReplace(title, signal) {
  return confirmDialog({
    title: "Replace your draft?",
    text: `This link opens a copy of “${title}” in the editor, in place of the draft you were working on.`,
    confirm: "Replace my draft",
    cancel: "Keep my draft",
    tone: "danger",
    signal,
  });
}
