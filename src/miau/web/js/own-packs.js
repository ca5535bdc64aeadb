// The library packs this browser's author made or saved into with the
// editor. Such a pack is the author's own: none of its levels is locked for
// them, and world select calls it theirs rather than imported. Kept in
// localStorage (`miau.ownPacks`), so it holds for this browser only.

const OWN_PACKS_KEY = "miau.ownPacks";

function stored(storage) {
  try {
    const list = JSON.parse((storage ?? globalThis.localStorage).getItem(OWN_PACKS_KEY) || "[]");
    return Array.isArray(list) ? list.filter((id) => typeof id === "string") : [];
  } catch {
    return []; // storage refused or damaged: no pack is known as one's own
  }
}

/** Whether the library pack `packId` is this author's own (they saved into it with the editor). */
export function isOwnPack(packId, storage = null) {
  return typeof packId === "string" && stored(storage).includes(packId);
}

/** The ids of the library packs this author made or saved into, oldest first. */
export function ownPackIds(storage = null) {
  return stored(storage);
}

/** Notes that the author saved into the library pack `packId`. */
export function markOwnPack(packId, storage = null) {
  const list = stored(storage);
  if (list.includes(packId)) return;
  try {
    (storage ?? globalThis.localStorage).setItem(OWN_PACKS_KEY, JSON.stringify([...list, packId]));
  } catch {
    // Only a convenience: the pack then locks like an imported one.
  }
}
