// The editor's side tabs (Level, Clockwork, Check, Solve, Depth, Save): a tab list
// whose arrow keys move between tabs, each tab showing its panel.

import { h } from "../dom.js";

export const TABS = [
  ["level", "Level"],
  ["parts", "Clockwork"],
  ["check", "Check"],
  ["solve", "Solve"],
  ["depth", "Depth"],
  ["save", "Save"],
];

/**
 * The tab list (`list`) and its panels (`panels`, by name). `select(name)`
 * shows a panel, records it in `root.dataset.tab` and calls
 * `onSelect(name)`; clicks on a tab and its arrow keys select, until
 * `signal` aborts (`listen`).
 */
export class EditorTabs {
  constructor(root, { onSelect = () => {} } = {}) {
    this.root = root;
    this.onSelect = onSelect;
    this.buttons = new Map();
    this.panels = new Map();
    for (const [name, label] of TABS) {
      this.buttons.set(
        name,
        h(
          "button",
          {
            class: "tab",
            type: "button",
            role: "tab",
            id: `editor-tab-${name}`,
            "aria-controls": `editor-panel-${name}`,
            "aria-selected": "false",
            dataset: { tab: name },
          },
          label,
        ),
      );
      this.panels.set(
        name,
        h("section", {
          class: "tab-panel",
          role: "tabpanel",
          id: `editor-panel-${name}`,
          "aria-labelledby": `editor-tab-${name}`,
          hidden: true,
          dataset: { panel: name },
        }),
      );
    }
    this.list = h("div", { class: "tabs", role: "tablist", "aria-label": "Editor panels" }, [
      ...this.buttons.values(),
    ]);
  }

  /** The panel of tab `name`. */
  panel(name) {
    return this.panels.get(name);
  }

  /** Shows tab `name`'s panel (and focuses its tab unless `focus` is false). */
  select(name, { focus = true } = {}) {
    for (const [tab, button] of this.buttons) {
      const on = tab === name;
      button.setAttribute("aria-selected", String(on));
      button.tabIndex = on ? 0 : -1;
      this.panels.get(tab).hidden = !on;
    }
    this.root.dataset.tab = name;
    this.onSelect(name);
    if (focus) this.buttons.get(name).focus();
  }

  /** Arrow keys move between tabs, like a tab list should, until `signal` aborts. */
  listen(signal) {
    this.list.addEventListener(
      "keydown",
      (event) => {
        if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
        event.preventDefault();
        event.stopPropagation();
        this.select(neighbourTab(this.root.dataset.tab, event.key === "ArrowRight" ? 1 : -1));
      },
      { signal },
    );
  }
}

/** The tab `step` places after (or before) tab `name`, wrapping around. */
export function neighbourTab(name, step) {
  const names = TABS.map(([tab]) => tab);
  const index = names.indexOf(name);
  return names[(index + step + names.length) % names.length];
}
