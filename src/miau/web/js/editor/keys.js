// The editor's keyboard: in test-play only T (back to editing); while
// editing, Ctrl+Z / Ctrl+Y, Escape, the arrows (Shift carries a tile),
// Enter or Space paints, Delete erases, 1–0 and [ ] pick from the palette,
// T test-plays. A text field keeps its own keys.

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function elementOf(target) {
  return target && typeof target.closest === "function" ? target : null;
}

/** Whether a key pressed on `target` goes into a text field. */
export function isTyping(target) {
  return Boolean(elementOf(target)?.closest("input, textarea, select, [contenteditable='true']"));
}

/**
 * Listens for the editor's keys on `keys` (the window) until `signal`
 * aborts. `editor` gives what the keys do: `isPlaying()`, `undo()`,
 * `redo()`, `enterPlay()`, `exitPlay()`, `back()` (leaves the editor,
 * asking first when there are unsaved edits), `focusGrid()`,
 * `dialogOpen()`, and `grid` and `palette` (the EditorGrid and Palette).
 */
export function bindEditorKeys(keys, editor, signal) {
  keys.addEventListener("keydown", (event) => editorKey(event, editor), { signal });
}

/** What one key press does in the editor (see bindEditorKeys). */
export function editorKey(event, editor) {
  const key = event.key;
  const typing = isTyping(event.target);
  if (editor.isPlaying()) {
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && key.toLowerCase() === "t") {
      event.preventDefault();
      editor.exitPlay();
    }
    return;
  }
  if ((event.ctrlKey || event.metaKey) && !event.altKey) {
    if (!typing) undoKey(event, editor); // a text field keeps its own undo
    return;
  }
  if (key === "Escape" && !event.defaultPrevented && !editor.dialogOpen()) {
    event.preventDefault();
    // Escape leaves a text field for the grid first, then the editor for where it was opened from.
    if (typing) editor.focusGrid();
    else editor.back();
    return;
  }
  if (typing || event.altKey || event.defaultPrevented) return;
  gridKey(event, editor);
}

function undoKey(event, editor) {
  const lower = event.key.toLowerCase();
  if (lower === "z" && !event.shiftKey) {
    event.preventDefault();
    editor.undo();
  } else if ((lower === "z" && event.shiftKey) || lower === "y") {
    event.preventDefault();
    editor.redo();
  }
}

function gridKey(event, editor) {
  const key = event.key;
  const { grid, palette } = editor;
  const onButton = Boolean(elementOf(event.target)?.closest("button, a"));
  if (ARROWS[key]) {
    event.preventDefault();
    const [dx, dy] = ARROWS[key];
    if (event.shiftKey) grid.carry(dx, dy);
    else grid.moveCursor(dx, dy);
    if (!onButton) editor.focusGrid();
  } else if ((key === "Enter" || key === " ") && !onButton) {
    event.preventDefault();
    grid.useToolAtCursor();
  } else if (key === "Delete" || (key === "Backspace" && !onButton)) {
    event.preventDefault();
    grid.eraseAtCursor();
  } else if (/^[0-9]$/.test(key)) {
    event.preventDefault();
    palette.pickByKey(key);
  } else if (key === "[" || key === "]") {
    event.preventDefault();
    palette.cycle(key === "[" ? -1 : 1);
  } else if (key.toLowerCase() === "t" && !event.shiftKey) {
    event.preventDefault();
    editor.enterPlay();
  }
}
