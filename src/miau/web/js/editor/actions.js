// Clicks in the editor: a tab selects its panel, a top-bar button does its
// action (`data-action`: back, undo, redo, test-play, check, solve,
// show-save, new).

/**
 * Listens for clicks in `root` until `signal` aborts: a tab calls
 * `selectTab(name)`, a top-bar button `actions[its data-action](event)`
 * (the way back is a link: its action may keep it from going).
 */
export function bindEditorClicks(root, { selectTab, actions }, signal) {
  root.addEventListener(
    "click",
    (event) => {
      const target = typeof event.target?.closest === "function" ? event.target : null;
      const tab = target?.closest(".tab[data-tab]");
      if (tab && root.contains(tab)) {
        selectTab(tab.dataset.tab);
        return;
      }
      const button = target?.closest(".editor-topbar [data-action]");
      if (!button) return;
      actions[button.dataset.action]?.(event);
    },
    { signal },
  );
}
