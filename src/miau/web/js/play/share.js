// Share: the Share button and its key make the level's link and show it in
// the share dialog, with the play controls off meanwhile.

/** The key that shares, beside the Share button's label. */
export const SHARE_KEY = "l";

/**
 * The share code of the level a play scene of `kind` shows: a shared level
 * has its own; a level or a draft is made into a one-level pack and encoded
 * by `api`.
 */
export async function shareCodeFor(kind, params, api) {
  if (kind === "shared") return params.share;
  const onePack = kind === "draft" ? params.draft : await api.levelPack(params.pack, params.level);
  return (await api.encodeShare(onePack)).code;
}

/**
 * Makes `button` and the SHARE_KEY (on `keys`, the window) share the level:
 * `code()` gives its share code, `link(code)` its address, and `dialog`
 * (dialog.js `shareDialog`) shows it titled `title`. `controls` are off
 * while it is open and on again after, unless `isWon()`; the key does
 * nothing while `isCovered()` (the win card is up). `root.dataset.sharing`
 * says whether a share is under way. Returns the share function.
 */
export function bindShare({
  root,
  button,
  keys,
  code,
  link,
  dialog,
  title,
  controls,
  isWon,
  isCovered,
  toast,
  signal,
}) {
  let sharing = false;
  async function share() {
    if (sharing) return;
    sharing = true;
    controls.setEnabled(false);
    root.dataset.sharing = "true";
    try {
      const shareCode = await code();
      if (signal.aborted) return;
      await dialog({ title, link: link(shareCode), signal });
    } catch (error) {
      if (!signal.aborted) toast(error?.message || "This level cannot be shared.", { tone: "error" });
    } finally {
      sharing = false;
      root.dataset.sharing = "false";
      if (!signal.aborted && !isWon()) controls.setEnabled(true);
    }
  }
  button.addEventListener("click", share);
  keys.addEventListener(
    "keydown",
    (event) => {
      if (event.key.toLowerCase() !== SHARE_KEY || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isCovered()) return;
      event.preventDefault();
      share();
    },
    { signal },
  );
  return share;
}
