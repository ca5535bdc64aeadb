// The editor's page: the top bar, the palette on the left, the grid (or the
// test-play view) in the middle, the tabs on the right and the draft's JSON
// for the browser tests, drawn into the scene's root. It shows; it decides
// nothing.

import { h } from "../dom.js";
import { EditorTabs } from "./tabs.js";
import { EditorTopbar } from "./topbar.js";

const KEYS_NOTE =
  "Click or drag to paint · right-click erases · Shift-drag or the move tool drags a tile · " +
  "arrows, Enter, Delete, 1–0, [ ] from the keyboard";

/**
 * Draws the editor's page into `root`. `topbar` gets EditorTopbar's
 * options, `onTab(name)` is called when a tab is selected. Its parts:
 * `paletteRoot`, `boardArea`, `editStage` (the grid and its key note),
 * `playRoot` (test-play), `levelForm` and `partsForm` (in the Level and
 * Clockwork tabs), `tabs`, `topbar`.
 */
export class EditorPage {
  constructor(root, { topbar, onTab }) {
    this.root = root;
    root.className = "scene editor-scene editor";
    root.dataset.mode = "edit";
    root.dataset.ready = "false";
    document.title = "Editor · Miau";
    this.draftOutput = h("output", { class: "draft-json", name: "draft", hidden: true });
    this.cursorNote = h("span", { class: "cursor-note", "aria-live": "off" }, "");
    this.topbar = new EditorTopbar(topbar);
    this.paletteRoot = h("aside", { class: "editor-palette", "aria-label": "Palette" });
    this.boardArea = h("div", { class: "board-area editor-board-area" });
    this.editStage = h(
      "div",
      { class: "editor-stage" },
      this.boardArea,
      h("p", { class: "editor-keys" }, this.cursorNote, " · ", KEYS_NOTE),
    );
    this.playRoot = h("div", { class: "editor-play", hidden: true });
    this.tabs = new EditorTabs(root, { onSelect: onTab });
    this.levelForm = h("div", { class: "form-stack" });
    this.partsForm = h("div", { class: "form-stack" });
    this.tabs.panel("level").append(this.levelForm);
    this.tabs.panel("parts").append(this.partsForm);
    root.append(
      this.topbar.element,
      h(
        "main",
        { class: "editor-main" },
        this.paletteRoot,
        h("div", { class: "editor-center" }, this.editStage, this.playRoot),
        h(
          "aside",
          { class: "editor-side", "aria-label": "Level settings and tools" },
          this.tabs.list,
          [...this.tabs.panels.values()],
        ),
      ),
      this.draftOutput,
    );
  }

  /** Shows the grid cell under the cursor. */
  showCursor(x, y) {
    this.cursorNote.textContent = `Cell ${x}, ${y}`;
  }

  /** Shows what the page keeps of `draft` beside the grid: title, undo and redo, its JSON and counts. */
  showDraft(draft) {
    const level = draft.level;
    this.topbar.show(draft);
    this.draftOutput.value = JSON.stringify(draft.pack);
    this.root.dataset.objects = String(level.objects.length);
    this.root.style.setProperty("--grid-aspect", String(level.height / level.width));
    this.root.dataset.undo = String(draft.undoStack.length);
    this.root.dataset.redo = String(draft.redoStack.length);
  }

  /** Shows the test-play view (true) or the grid (false). */
  showPlay(playing) {
    this.root.dataset.mode = playing ? "play" : "edit";
    this.editStage.hidden = playing;
    this.playRoot.hidden = !playing;
  }

  /** Whether the test-play view is showing. */
  get playing() {
    return this.root.dataset.mode === "play";
  }
}
