// The grid to paint on: the game's own board (board.js) draws the draft,
// and a transparent layer over it takes the pointer (click or drag to
// paint, right button or the eraser to erase, the move tool or Shift to drag
// an entity) and shows the keyboard's cell cursor, and the static dead
// squares the depth panel found (until the draft changes).

import { Board } from "../board.js";
import { h } from "../dom.js";
import { deadSquareKinds, deadSquareLabel } from "./depth-words.js";

/**
 * The editing board inside `area`. `draft` is the Draft, `tool()` the
 * selected palette tool; `onCursor(x, y)` runs when the cursor moves.
 */
export class EditorGrid {
  constructor(area, { draft, tool, onCursor = () => {} }) {
    this.area = area;
    this.draft = draft;
    this.tool = tool;
    this.onCursor = onCursor;
    this.board = null;
    this.signature = null;
    this.rules = []; // the rules in force, as the engine last reported them (DraftRules)
    this.cursor = { x: 0, y: 0 };
    this.drag = null;
    this.cursorBox = h("div", { class: "editor-cursor", "aria-hidden": "true" });
    this.flagBox = h("div", { class: "editor-flag", "aria-hidden": "true", hidden: true });
    this.deadLayer = h("div", { class: "dead-squares", dataset: { count: "0" } });
    this.overlay = h(
      "div",
      {
        class: "editor-overlay",
        tabindex: "0",
        role: "application",
        "aria-label":
          "Level grid. Arrows move the cursor, Enter places, Delete erases, Shift with arrows moves a tile.",
      },
      this.deadLayer,
      this.flagBox,
      this.cursorBox,
    );
    this.overlay.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.overlay.addEventListener("pointermove", (event) => this.pointerMove(event));
    this.overlay.addEventListener("pointerup", () => this.pointerUp());
    this.overlay.addEventListener("pointercancel", () => this.pointerUp());
    this.overlay.addEventListener("lostpointercapture", () => this.pointerUp());
    this.overlay.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  /** Stops the board's observers. */
  destroy() {
    this.board?.destroy();
  }

  /**
   * Draws the draft. The board is made anew when the words' classes or the
   * palette change (`signature`), since a board dresses a tile once.
   */
  render(vocabulary, palette, signature) {
    if (!this.board || signature !== this.signature) {
      this.board?.destroy();
      this.board?.element.remove();
      this.board = new Board(this.area, { vocabulary, palette });
      this.board.element.classList.add("is-editing");
      this.board.showRulesInForce(this.rules);
      this.signature = signature;
    }
    const state = this.draft.boardState();
    this.board.draw(state);
    // Moving the layer would drop its pointer capture mid-drag; it sits above the tiles by z-index.
    if (this.overlay.parentNode !== this.board.element) this.board.element.append(this.overlay);
    const indexOf = new Map(this.draft.uids.map((uid, index) => [uid, index]));
    for (const element of this.board.element.querySelectorAll(":scope > .entity")) {
      element.dataset.index = String(indexOf.get(Number(element.dataset.id)));
    }
    this.overlay.dataset.width = String(state.width);
    this.overlay.dataset.height = String(state.height);
    this.setCursor(Math.min(this.cursor.x, state.width - 1), Math.min(this.cursor.y, state.height - 1));
  }

  /**
   * Says `rules` (the engine's report on the draft, as a state's `rules`)
   * in the board's label: the draft drawn here has no rules of its own.
   */
  showRules(rules) {
    this.rules = rules;
    this.board?.showRulesInForce(rules);
  }

  /**
   * Marks the dead squares (`[{x, y, kinds}]`, a depth profile's) on the
   * grid, each with a letter per kind it is dead for (N, O, P: depth-words'
   * DEAD_KINDS) and a label saying why; `walls` is the profile's
   * `deadSquareWalls`. An empty list clears the marks. Every square given is
   * drawn: the profile lists a kind for a cell only where a word of that
   * kind can be pushed at all (miau.solver.dead_squares), so a cell no word
   * can reach never comes here.
   */
  showDeadSquares(squares, walls = "edge") {
    this.deadLayer.replaceChildren(
      ...squares.map((square) => {
        const label = deadSquareLabel(square, walls);
        return h(
          "div",
          {
            class: "dead-square",
            role: "img",
            "aria-label": label,
            title: label,
            style: { "--cx": String(square.x), "--cy": String(square.y) },
            dataset: { x: String(square.x), y: String(square.y), kinds: (square.kinds || []).join(" ") },
          },
          // The letters repeat the label for the eye; the label is what a screen reader says.
          h(
            "span",
            { class: "dead-kinds", "aria-hidden": "true" },
            deadSquareKinds(square).map(({ kind, letter }) => h("span", { class: "dead-kind", dataset: { kind } }, letter)),
          ),
        );
      }),
    );
    this.deadLayer.dataset.count = String(squares.length);
  }

  /** The cell under a pointer event, or null outside the grid. */
  cellAt(event) {
    const rect = this.overlay.getBoundingClientRect();
    const level = this.draft.level;
    const x = Math.floor(((event.clientX - rect.left) / rect.width) * level.width);
    const y = Math.floor(((event.clientY - rect.top) / rect.height) * level.height);
    if (x < 0 || y < 0 || x >= level.width || y >= level.height) return null;
    return { x, y };
  }

  /** Puts the keyboard cursor on (x, y). */
  setCursor(x, y) {
    this.cursor = { x: Math.max(0, x), y: Math.max(0, y) };
    this.cursorBox.style.setProperty("--cx", String(this.cursor.x));
    this.cursorBox.style.setProperty("--cy", String(this.cursor.y));
    this.cursorBox.dataset.x = String(this.cursor.x);
    this.cursorBox.dataset.y = String(this.cursor.y);
    this.overlay.dataset.cursor = `${this.cursor.x},${this.cursor.y}`;
    this.onCursor(this.cursor.x, this.cursor.y);
  }

  /** Moves the cursor by (dx, dy), staying inside the grid. */
  moveCursor(dx, dy) {
    const level = this.draft.level;
    this.setCursor(
      Math.max(0, Math.min(level.width - 1, this.cursor.x + dx)),
      Math.max(0, Math.min(level.height - 1, this.cursor.y + dy)),
    );
  }

  /** Applies the selected tool at the cursor (Enter or Space). */
  useToolAtCursor() {
    const tool = this.tool();
    const { x, y } = this.cursor;
    if (tool.kind === "erase") return this.draft.eraseTop(x, y);
    if (tool.kind === "move") return false;
    return this.draft.place(tool, x, y);
  }

  /** Erases the top entity under the cursor (Delete). */
  eraseAtCursor() {
    return this.draft.eraseTop(this.cursor.x, this.cursor.y);
  }

  /** Moves the top entity under the cursor by (dx, dy), the cursor with it (Shift and an arrow). */
  carry(dx, dy) {
    const { x, y } = this.cursor;
    const index = this.draft.topAt(x, y);
    const level = this.draft.level;
    const to = { x: x + dx, y: y + dy };
    if (to.x < 0 || to.y < 0 || to.x >= level.width || to.y >= level.height) return false;
    if (index >= 0) this.draft.moveIndex(index, to.x, to.y);
    this.setCursor(to.x, to.y);
    return index >= 0;
  }

  /** Points at object `index` (a check report's link): the cursor goes there and the tile is ringed. */
  flagIndex(index) {
    const entry = this.draft.level.objects[index];
    if (!entry) return false;
    this.setCursor(entry.x, entry.y);
    this.flag(entry.x, entry.y);
    for (const element of this.board.element.querySelectorAll(":scope > .entity[data-flagged]")) {
      delete element.dataset.flagged;
    }
    const element = this.board.element.querySelector(`:scope > .entity[data-index="${index}"]`);
    if (element) element.dataset.flagged = "true";
    this.overlay.focus({ preventScroll: false });
    return true;
  }

  flag(x, y) {
    this.flagBox.hidden = false;
    this.flagBox.style.setProperty("--cx", String(x));
    this.flagBox.style.setProperty("--cy", String(y));
    this.flagBox.dataset.x = String(x);
    this.flagBox.dataset.y = String(y);
    this.flagBox.getAnimations().forEach((animation) => animation.cancel());
    this.flagBox.animate(
      [
        { transform: "scale(1.6)", opacity: 0 },
        { transform: "scale(1)", opacity: 1 },
      ],
      { duration: 260, easing: "ease-out" },
    );
  }

  pointerDown(event) {
    if (event.button !== 0 && event.button !== 2) return;
    const cell = this.cellAt(event);
    if (!cell) return;
    event.preventDefault();
    this.overlay.focus({ preventScroll: true });
    this.overlay.setPointerCapture?.(event.pointerId);
    const tool = this.tool();
    let mode = "paint";
    if (event.button === 2 || tool.kind === "erase") mode = "erase";
    else if (tool.kind === "move" || event.shiftKey) mode = "move";
    this.draft.beginStroke();
    this.drag = { mode, index: -1, last: null };
    if (mode === "move") {
      this.drag.index = this.draft.topAt(cell.x, cell.y);
      this.overlay.dataset.dragging = String(this.drag.index >= 0);
    }
    this.applyDrag(cell);
  }

  pointerMove(event) {
    if (!this.drag) return;
    const cell = this.cellAt(event);
    if (cell) this.applyDrag(cell);
  }

  applyDrag(cell) {
    const key = `${cell.x},${cell.y}`;
    if (this.drag.last === key) return;
    this.drag.last = key;
    this.setCursor(cell.x, cell.y);
    if (this.drag.mode === "erase") this.draft.eraseTop(cell.x, cell.y);
    else if (this.drag.mode === "paint") this.draft.place(this.tool(), cell.x, cell.y);
    else if (this.drag.index >= 0) this.draft.moveIndex(this.drag.index, cell.x, cell.y);
  }

  pointerUp() {
    if (!this.drag) return;
    this.drag = null;
    delete this.overlay.dataset.dragging;
    this.draft.endStroke();
  }
}
