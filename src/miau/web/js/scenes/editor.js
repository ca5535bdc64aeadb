// The level editor: paint a one-level pack on the game's own board, edit its
// fields, automata, pairs and glossary, test-play it on the real engine,
// solve and check it on the server, save it into the library and share it.
// Routes: `#/edit` (the draft kept in localStorage) and `#/edit/PACK/LEVEL`
// (a copy of that level becomes the draft, as one undoable edit).

import * as api from "../api.js";
import { say } from "../announce.js";
import { h, keyLabel } from "../dom.js";
import { toast } from "../toast.js";
import { Vocabulary } from "../words.js";
import { CheckPanel } from "../editor/check-panel.js";
import {
  Draft,
  VOCABULARY_1,
  declaredWords,
  emptyPack,
  exportPack,
  loadStoredPack,
  usesVocabulary1,
} from "../editor/draft.js";
import { Forms } from "../editor/forms.js";
import { EditorGrid } from "../editor/grid.js";
import { Palette, newNounProblem, toolId } from "../editor/palette.js";
import { SavePanel } from "../editor/save-panel.js";
import { SolvePanel } from "../editor/solve-panel.js";
import { TestPlay } from "../editor/test-play.js";

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
const TABS = [
  ["level", "Level"],
  ["parts", "Clockwork"],
  ["check", "Check"],
  ["solve", "Solve"],
  ["save", "Save"],
];

function isTyping(target) {
  if (!(target instanceof Element)) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable='true']"));
}

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

/** Draws the editor into `root`. */
/** Where the editor was opened from: `{pack, level}` (a level's Edit), kept for this tab. */
const CAME_FROM_KEY = "miau.editor.from";

function cameFrom() {
  try {
    return JSON.parse(sessionStorage.getItem(CAME_FROM_KEY) || "null");
  } catch {
    return null;
  }
}

/** The way back: the level select of the world the edited level came from (that level focused), else worlds. */
function backRoute() {
  const from = cameFrom();
  return from?.pack ? `/world/${encodeURIComponent(from.pack)}` : "/worlds";
}

export async function mount(root, params, { signal, navigate }) {
  root.className = "scene editor-scene editor";
  root.dataset.mode = "edit";
  root.dataset.ready = "false";
  document.title = "Editor · Miau";

  const draftOutput = h("output", { class: "draft-json", name: "draft", hidden: true });
  const levelTitle = h("h1", { class: "play-title" }, "Editor");
  const cursorNote = h("span", { class: "cursor-note", "aria-live": "off" }, "");
  const undoButton = topButton("undo", "Undo", "Ctrl+Z", { title: "Undo (Ctrl+Z)" });
  const redoButton = topButton("redo", "Redo", "Ctrl+Y", { title: "Redo (Ctrl+Shift+Z or Ctrl+Y)" });
  const playButton = topButton("test-play", "Test-play", "T", { primary: true });
  const checkButton = topButton("check", "Check", null);
  const solveButton = topButton("solve", "Solve", null);
  const shareButton = topButton("show-save", "Save & share", null);
  const newButton = topButton("new", "New", null, { title: "Start an empty level (undoable)" });

  const paletteRoot = h("aside", { class: "editor-palette", "aria-label": "Palette" });
  const boardArea = h("div", { class: "board-area editor-board-area" });
  const editStage = h(
    "div",
    { class: "editor-stage" },
    boardArea,
    h(
      "p",
      { class: "editor-keys" },
      cursorNote,
      " · ",
      "Click or drag to paint · right-click erases · Shift-drag or the move tool drags a tile · arrows, Enter, Delete, 1–0, [ ] from the keyboard",
    ),
  );
  const playRoot = h("div", { class: "editor-play", hidden: true });

  const tabButtons = new Map();
  const tabPanels = new Map();
  for (const [name, label] of TABS) {
    tabButtons.set(
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
    tabPanels.set(
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
  const levelForm = h("div", { class: "form-stack" });
  const partsForm = h("div", { class: "form-stack" });
  tabPanels.get("level").append(levelForm);
  tabPanels.get("parts").append(partsForm);

  root.append(
    h(
      "header",
      { class: "topbar editor-topbar" },
      h(
        "a",
        { class: "button ghost back", href: `#${backRoute()}`, dataset: { action: "back" } },
        h("span", { class: "label" }, "‹", h("span", { class: "back-word" }, cameFrom()?.pack ? " Levels" : " Worlds")),
        h("kbd", {}, "Esc"),
      ),
      h("div", { class: "play-titles" }, h("span", { class: "play-world" }, "Level editor"), levelTitle),
      h(
        "div",
        { class: "editor-actions" },
        undoButton,
        redoButton,
        newButton,
        checkButton,
        solveButton,
        shareButton,
        playButton,
      ),
    ),
    h(
      "main",
      { class: "editor-main" },
      paletteRoot,
      h("div", { class: "editor-center" }, editStage, playRoot),
      h(
        "aside",
        { class: "editor-side", "aria-label": "Level settings and tools" },
        h("div", { class: "tabs", role: "tablist", "aria-label": "Editor panels" }, [...tabButtons.values()]),
        [...tabPanels.values()],
      ),
    ),
    draftOutput,
  );

  // The draft: the stored one, or an empty level.
  const draft = new Draft(loadStoredPack() || emptyPack(), { onChange: () => renderAll() });

  let vocabulary = null;
  let builtInWords = null; // the words each vocabulary feature adds, from the server
  let wordSignature = null;
  let paletteSignature = null;

  const grid = new EditorGrid(boardArea, {
    draft,
    tool: () => palette.tool,
    onCursor: (x, y) => {
      cursorNote.textContent = `Cell ${x}, ${y}`;
    },
  });
  const palette = new Palette(paletteRoot, {
    onPick: (tool) => {
      root.dataset.tool = toolId(tool);
      say(`${tool.label} selected.`);
      grid.overlay.focus({ preventScroll: true });
    },
    onAddNoun: (noun, glyph) => {
      const problem = newNounProblem(noun, glyph, draft.pack, declaredWords(draft.level));
      if (problem) return problem;
      draft.edit((pack) => {
        pack.palette[noun] = glyph;
      }, "palette");
      palette.pick({ kind: "object", noun, label: noun });
      return null;
    },
  });
  const forms = new Forms(levelForm, partsForm, { draft, vocabulary: () => vocabulary });

  const showPlace = (place) => {
    const object = /^levels\[0\]\.objects\[(\d+)\]/.exec(place);
    // A tile is on the board, which is always in view: the report stays open beside it.
    if (object) return grid.flagIndex(Number(object[1]));
    const key = place.replace(/^levels\[0\]\.?/, "");
    const tab = /^(automata|pairs|properties)/.test(key) ? "parts" : "level";
    selectTab(tab, { focus: false });
    return forms.focusPlace(place);
  };
  const packToSend = (manifest = {}) => exportPack(draft.pack, manifest);

  const checkPanel = new CheckPanel(tabPanels.get("check"), { pack: () => packToSend(), onPlace: showPlace });
  const solvePanel = new SolvePanel(tabPanels.get("solve"), {
    pack: () => packToSend(),
    solution: () => draft.level.solution,
    onStore: (moves) => {
      draft.edit((pack) => {
        pack.levels[0].solution = moves;
      }, "solution");
      toast(`Stored ${moves.length} moves as the level's solution.`);
    },
    onReplay: (moves) => enterPlay({ replay: moves }),
  });
  const savePanel = new SavePanel(tabPanels.get("save"), {
    pack: (manifest) => packToSend(manifest),
    levelId: () => draft.level.id,
    onPlace: showPlace,
    signal,
  });

  const testPlay = new TestPlay(playRoot, { onExit: () => exitPlay() });

  function selectTab(name, { focus = true } = {}) {
    for (const [tab, button] of tabButtons) {
      const on = tab === name;
      button.setAttribute("aria-selected", String(on));
      button.tabIndex = on ? 0 : -1;
      tabPanels.get(tab).hidden = !on;
    }
    root.dataset.tab = name;
    if (name === "save") savePanel.refresh();
    if (focus) tabButtons.get(name).focus();
  }

  function renderAll() {
    const pack = draft.pack;
    const level = draft.level;
    const declared = declaredWords(level);
    // The Tier-1 words, when the draft uses them: drawn and offered like the game draws them.
    const tier1 = usesVocabulary1(pack) ? builtInWords?.[VOCABULARY_1] : null;
    const builtIn = tier1 ? [...tier1.operators, ...tier1.nouns, ...tier1.properties] : [];
    vocabulary = new Vocabulary(
      {
        automata: level.automata || [],
        pairs: level.pairs || [],
        properties: tier1?.properties || [],
        operators: tier1 ? ["IS", "AND", ...tier1.operators] : undefined,
      },
      { glossary: { ...(tier1?.glossary || {}), ...(pack.properties || {}) } },
    );
    const nextWords = JSON.stringify([
      builtIn,
      declared,
      Object.entries(pack.properties || {}).map(([word, entry]) => [word, entry.accent]),
    ]);
    const nextPalette = JSON.stringify(pack.palette);
    const boardSignature = `${nextWords}|${nextPalette}`;
    grid.render(vocabulary, pack.palette, boardSignature);
    const wordNouns = JSON.stringify(
      level.objects
        .filter((entry) => entry.kind === "word")
        .map((entry) => entry.text)
        .sort(),
    );
    const paletteKey = `${boardSignature}|${wordNouns}`;
    if (paletteKey !== paletteSignature || nextWords !== wordSignature) {
      palette.render(pack, vocabulary, declared, builtIn);
      paletteSignature = paletteKey;
      wordSignature = nextWords;
    }
    forms.render();
    solvePanel.showStored(level.solution);
    levelTitle.textContent = level.title;
    undoButton.disabled = !draft.canUndo;
    redoButton.disabled = !draft.canRedo;
    draftOutput.value = JSON.stringify(pack);
    root.dataset.objects = String(level.objects.length);
    root.style.setProperty("--grid-aspect", String(level.height / level.width));
    root.dataset.undo = String(draft.undoStack.length);
    root.dataset.redo = String(draft.redoStack.length);
  }

  function enterPlay({ replay = null } = {}) {
    if (root.dataset.mode === "play") testPlay.stop();
    draft.endStroke();
    root.dataset.mode = "play";
    editStage.hidden = true;
    playRoot.hidden = false;
    testPlay.start(packToSend(), vocabulary, draft.pack.palette, { replay });
  }

  function exitPlay() {
    if (root.dataset.mode !== "play") return;
    testPlay.stop();
    root.dataset.mode = "edit";
    playRoot.hidden = true;
    editStage.hidden = false;
    renderAll();
    grid.overlay.focus({ preventScroll: true });
    say("Back to editing.");
  }

  function undo() {
    if (draft.undo()) say("Undone.");
  }

  function redo() {
    if (draft.redo()) say("Redone.");
  }

  root.addEventListener(
    "click",
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const tab = target?.closest(".tab[data-tab]");
      if (tab && root.contains(tab)) {
        selectTab(tab.dataset.tab);
        return;
      }
      const button = target?.closest(".editor-topbar [data-action]");
      if (!button) return;
      switch (button.dataset.action) {
        case "undo":
          undo();
          break;
        case "redo":
          redo();
          break;
        case "test-play":
          if (root.dataset.mode === "play") exitPlay();
          else enterPlay();
          break;
        case "check":
          exitPlay();
          selectTab("check", { focus: false });
          checkPanel.start();
          break;
        case "solve":
          exitPlay();
          selectTab("solve", { focus: false });
          solvePanel.start();
          break;
        case "show-save":
          selectTab("save");
          break;
        case "new":
          // Undo brings the last level back, so New needs no question.
          draft.replace(emptyPack());
          toast("Started an empty level. Undo (Ctrl+Z) brings the last one back.");
          break;
        default:
          break;
      }
    },
    { signal },
  );

  // Arrow keys move between tabs, like a tab list should.
  root.querySelector(".tabs").addEventListener(
    "keydown",
    (event) => {
      const names = TABS.map(([name]) => name);
      const index = names.indexOf(root.dataset.tab);
      if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        event.preventDefault();
        event.stopPropagation();
        selectTab(names[(index + (event.key === "ArrowRight" ? 1 : names.length - 1)) % names.length]);
      }
    },
    { signal },
  );

  window.addEventListener(
    "keydown",
    (event) => {
      const key = event.key;
      const typing = isTyping(event.target);
      if (root.dataset.mode === "play") {
        if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && key.toLowerCase() === "t") {
          event.preventDefault();
          exitPlay();
        }
        return;
      }
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey) {
        if (typing) return; // a text field keeps its own undo
        const lower = key.toLowerCase();
        if (lower === "z" && !event.shiftKey) {
          event.preventDefault();
          undo();
        } else if ((lower === "z" && event.shiftKey) || lower === "y") {
          event.preventDefault();
          redo();
        }
        return;
      }
      if (key === "Escape" && !event.defaultPrevented && !document.querySelector("dialog[open]")) {
        event.preventDefault();
        // Escape leaves a text field for the grid first, then the editor for where it was opened from.
        if (typing) grid.overlay.focus({ preventScroll: true });
        else navigate(backRoute());
        return;
      }
      if (typing || event.altKey || event.defaultPrevented) return;
      const onButton = event.target instanceof Element && Boolean(event.target.closest("button, a"));
      if (ARROWS[key]) {
        event.preventDefault();
        const [dx, dy] = ARROWS[key];
        if (event.shiftKey) grid.carry(dx, dy);
        else grid.moveCursor(dx, dy);
        if (!onButton) grid.overlay.focus({ preventScroll: true });
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
        enterPlay();
      }
    },
    { signal },
  );

  signal.addEventListener("abort", () => {
    testPlay.stop();
    grid.destroy();
    draft.endStroke();
  });

  selectTab("level", { focus: false });
  renderAll();
  api
    .vocabularies()
    .then((words) => {
      if (signal.aborted) return;
      builtInWords = words;
      renderAll();
    })
    .catch(() => {
      // Offline: the core words still work; the Tier-1 ones appear with the next visit.
    });
  palette.pick(palette.tools.find((tool) => tool.kind === "object") || palette.tools[0]);
  root.dataset.ready = "true";

  if (params?.pack && params?.level) {
    try {
      sessionStorage.setItem(CAME_FROM_KEY, JSON.stringify({ pack: params.pack, level: params.level }));
    } catch {
      // Without storage the way back is world select.
    }
    try {
      const onePack = await api.levelPack(params.pack, params.level);
      if (signal.aborted) return;
      // A copy: saving it must not aim at the shipped or imported pack it came from.
      const manifest = { id: "draft", name: "Draft", version: "1.0.0", engine: 1 };
      if (onePack.manifest.features) manifest.features = onePack.manifest.features;
      draft.replace({ ...onePack, manifest });
      toast(`Editing a copy of “${onePack.levels[0].title}”. Saving puts it in your library.`);
    } catch (error) {
      if (signal.aborted) return;
      toast(error?.message || "That level could not be opened.", { tone: "error" });
    }
    // The copy is the draft now: a reload must resume it, not copy the level again.
    history.replaceState(null, "", "#/edit");
  }
  grid.overlay.focus({ preventScroll: true });
}
