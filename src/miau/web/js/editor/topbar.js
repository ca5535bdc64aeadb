// The editor's top bar: the way back, the level's title, and the buttons
// Undo, Redo, New, Check, Solve, Save & share and Test-play.

import { h, keyLabel } from "../dom.js";

function topButton(action, label, key, extra = {}) {
  return h(
    "button",
    {
      class: `button ${extra.primary ? "primary" : ""}`.trim(),
      type: "button",
      title: extra.title || null,
      dataset: { action },
    },
    key ? keyLabel(label, key) : label,
  );
}

/**
 * The top bar: `backRoute` and `backWord` make the way back. Its buttons
 * carry `data-action`, which editor/actions.js acts on; `show(draft)` shows
 * the draft's title and whether undo and redo can go anywhere.
 */
export class EditorTopbar {
  constructor({ backRoute, backWord }) {
    this.levelTitle = h("h1", { class: "play-title" }, "Editor");
    this.undoButton = topButton("undo", "Undo", "Ctrl+Z", { title: "Undo (Ctrl+Z)" });
    this.redoButton = topButton("redo", "Redo", "Ctrl+Y", { title: "Redo (Ctrl+Shift+Z or Ctrl+Y)" });
    this.element = h(
      "header",
      { class: "topbar editor-topbar" },
      h(
        "a",
        { class: "button ghost back", href: `#${backRoute}`, dataset: { action: "back" } },
        h("span", { class: "label" }, "‹", h("span", { class: "back-word" }, backWord)),
        h("kbd", {}, "Esc"),
      ),
      h("div", { class: "play-titles" }, h("span", { class: "play-world" }, "Level editor"), this.levelTitle),
      h(
        "div",
        { class: "editor-actions" },
        this.undoButton,
        this.redoButton,
        topButton("new", "New", null, { title: "Start an empty level (undoable)" }),
        topButton("check", "Check", null),
        topButton("solve", "Solve", null),
        topButton("show-save", "Save & share", null),
        topButton("test-play", "Test-play", "T", { primary: true }),
      ),
    );
  }

  /** Shows the draft's title and enables Undo and Redo when they have something to do. */
  show(draft) {
    this.levelTitle.textContent = draft.level.title;
    this.undoButton.disabled = !draft.canUndo;
    this.redoButton.disabled = !draft.canRedo;
  }
}
