// The level editor: paint a one-level pack on the game's own board, edit its
// fields, automata, pairs and glossary, test-play it on the real engine,
// solve, check and measure its depth on the server (or in the page), ask the
// generator for variations, save it into the library and share it.
// Routes: `#/edit` (the draft kept in localStorage) and `#/edit/PACK/LEVEL`
// (a copy of that level becomes the draft, as one undoable edit).
//
// This file only wires the parts under js/editor/, each of which does one job.

import * as api from "../api.js";
import { say } from "../announce.js";
import { toast } from "../toast.js";
import { bindEditorClicks } from "../editor/actions.js";
import { CameFrom } from "../editor/came-from.js";
import { CheckPanel } from "../editor/check-panel.js";
import { DepthPanel } from "../editor/depth-panel.js";
import { packWithLevel } from "../editor/depth-words.js";
import {
  Draft,
  declaredWords,
  emptyPack,
  exportPack,
  loadStoredHistory,
  loadStoredPack,
} from "../editor/draft.js";
import { DraftRules } from "../editor/draft-rules.js";
import { DraftView } from "../editor/draft-view.js";
import * as port from "../engine-port.js";
import { markOwnPack } from "../own-packs.js";
import { Forms } from "../editor/forms.js";
import { EditorGrid } from "../editor/grid.js";
import { bindEditorKeys } from "../editor/keys.js";
import { backClick, mayLeave } from "../editor/leaving.js";
import { openLevelCopy } from "../editor/level-copy.js";
import { EditorModes } from "../editor/modes.js";
import { EditorPage } from "../editor/page.js";
import { Palette, newNounProblem, toolId } from "../editor/palette.js";
import { placeShower } from "../editor/places.js";
import { SavePanel } from "../editor/save-panel.js";
import { SolvePanel } from "../editor/solve-panel.js";
import { TestPlay } from "../editor/test-play.js";
import * as studio from "../studio-port.js";

/** Draws the editor into `root`. */
export async function mount(root, params, { signal, navigate }) {
  const cameFrom = new CameFrom();
  const page = new EditorPage(root, {
    topbar: { backRoute: cameFrom.backRoute(), backWord: cameFrom.backWord() },
    onTab: (name) => name === "save" && savePanel.refresh(),
  });
  const selectTab = (name, options) => page.tabs.select(name, options);
  const focusGrid = () => grid.overlay.focus({ preventScroll: true });
  // The draft: the stored one with its undo history, or an empty level.
  const stored = loadStoredPack();
  const draft = new Draft(stored || emptyPack(), {
    history: stored ? loadStoredHistory() : null,
    onChange: () => {
      // Dead squares belong to the level that was measured: stale after any change.
      grid.showDeadSquares([]);
      panels.depthPanel.markStale();
      view.render();
      showRules();
    },
  });
  // The rules in force, under the grid, after every edit (the engine says which).
  const rules = new DraftRules({
    port,
    isPlaying: () => page.playing,
    highlight: (ids) => grid.board?.highlight(ids),
    onRules: (found) => grid.showRules(found),
  });
  page.editStage.insertBefore(rules.element, page.editStage.lastElementChild);
  const showRules = () => rules.refresh(packToSend(), view.vocabulary);
  const grid = new EditorGrid(page.boardArea, {
    draft,
    tool: () => palette.tool,
    onCursor: (x, y) => page.showCursor(x, y),
  });
  const handlers = paletteHandlers({ root, draft, focusGrid, palette: () => palette });
  const palette = new Palette(page.paletteRoot, handlers);
  const forms = new Forms(page.levelForm, page.partsForm, { draft, vocabulary: () => view.vocabulary });
  const showPlace = placeShower({ grid, forms, selectTab });
  const packToSend = (manifest = {}) => exportPack(draft.pack, manifest);
  const replay = (moves) => modes.enterPlay({ replay: moves });
  // A suggested variation plays its solution on its own pack: the draft is untouched.
  const watch = (pack, moves) => modes.enterPlay({ replay: moves, pack });
  // The author's last test-play win, kept with the level it won (Save may store it as the solution).
  let lastWin = null;
  const winOfDraft = () => (lastWin && lastWin.level === levelKey(packToSend()) ? lastWin.moves : null);
  const panels = editorPanels(page, { draft, grid, packToSend, showPlace, replay, watch, winOfDraft, signal });
  const { solvePanel, savePanel } = panels;
  const view = new DraftView({ draft, grid, palette, forms, solvePanel, page });
  const modes = new EditorModes({
    page,
    draft,
    testPlay: new TestPlay(page.playRoot, {
      onExit: () => modes.exitPlay(),
      onWin: (moves, pack) => {
        lastWin = { moves, level: levelKey(pack) };
      },
      // The win is of the draft as it is now: storing it is one undoable edit.
      onStore: (moves) => storeSolution(draft, moves),
      solution: () => draft.level.solution ?? null,
    }),
    game: () => ({
      pack: packToSend(),
      vocabulary: view.vocabulary,
      palette: draft.pack.palette,
      stored: draft.savedUnchanged(),
    }),
    onEdit: () => {
      view.render();
      showRules();
      focusGrid();
      say("Back to editing.");
    },
  });
  const undo = () => draft.undo() && say("Undone.");
  const redo = () => draft.redo() && say("Redone.");
  const goBack = () => navigate(cameFrom.backRoute());
  const actions = {
    ...topbarActions({ draft, modes, panels, selectTab, undo, redo }),
    back: (event) => backClick(event, { draft, signal, leave: goBack }),
  };
  bindEditorClicks(root, { selectTab, actions }, signal);
  page.tabs.listen(signal);
  bindEditorKeys(
    window,
    {
      grid,
      palette,
      undo,
      redo,
      focusGrid,
      isPlaying: () => page.playing,
      enterPlay: () => modes.enterPlay(),
      exitPlay: () => modes.exitPlay(),
      back: async () => (await mayLeave(draft, signal)) && !signal.aborted && goBack(),
      dialogOpen: () => Boolean(document.querySelector("dialog[open]")),
    },
    signal,
  );
  signal.addEventListener("abort", () => {
    rules.stop();
    modes.testPlay.stop();
    grid.destroy();
    draft.endStroke();
  });

  selectTab("level", { focus: false });
  view.render();
  showRules();
  loadBuiltInWords(view, signal, showRules);
  palette.pick(palette.tools.find((tool) => tool.kind === "object") || palette.tools[0]);
  root.dataset.ready = "true";
  if (params?.pack && params?.level) {
    await openLevelCopy(params, { api, draft, cameFrom, toast, history, signal });
    if (signal.aborted) return;
  }
  focusGrid();
}

/** The palette's callbacks: a picked tool is said and the grid takes the keys; a new noun joins the palette. */
function paletteHandlers({ root, draft, focusGrid, palette }) {
  return {
    onPick: (tool) => {
      root.dataset.tool = toolId(tool);
      say(`${tool.label} selected.`);
      focusGrid();
    },
    onAddNoun: (noun, glyph) => {
      const problem = newNounProblem(noun, glyph, draft.pack, declaredWords(draft.level));
      if (problem) return problem;
      draft.edit((pack) => {
        pack.palette[noun] = glyph;
      }, "palette");
      palette().pick({ kind: "object", noun, label: noun });
      return null;
    },
  };
}

/** The Check, Solve, Depth and Save tabs' panels, on what the draft would send. */
function editorPanels(page, { draft, grid, packToSend, showPlace, replay, watch, winOfDraft, signal }) {
  const solvePanel = new SolvePanel(page.tabs.panel("solve"), {
    pack: () => packToSend(),
    solution: () => draft.level.solution,
    onStore: (moves) => storeSolution(draft, moves),
    onReplay: replay,
  });
  // The Solve tab's Cap bounds the check's searches too: one control raises a LIMIT.
  const checkPanel = new CheckPanel(page.tabs.panel("check"), {
    pack: () => packToSend(),
    cap: () => solvePanel.capChoice(),
    onPlace: showPlace,
  });
  return {
    solvePanel,
    checkPanel,
    depthPanel: new DepthPanel(page.tabs.panel("depth"), {
      pack: () => packToSend(),
      onDeadSquares: (squares, walls) => grid.showDeadSquares(squares, walls),
      onUse: (level) => {
        draft.replace(packWithLevel(draft.pack, level));
        toast("The draft is now that variation. Undo (Ctrl+Z) brings your level back.");
      },
      onWatch: (level) => watch(packWithLevel(packToSend(), level), level.solution),
      glyphs: () => draft.pack.palette || {},
    }),
    savePanel: new SavePanel(page.tabs.panel("save"), {
      pack: (manifest) => packToSend(manifest),
      levelId: () => draft.level.id,
      onSaved: (packId, levelId) => {
        draft.markSaved(packId, levelId);
        markOwnPack(packId);
      },
      onPlace: showPlace,
      signal,
      check: (pack, options) => studio.check(pack, options),
      lastCheck: () => checkPanel.last,
      lastWin: winOfDraft,
      setSolution: (moves) =>
        draft.edit((pack) => {
          if (moves) pack.levels[0].solution = moves;
          else delete pack.levels[0].solution;
        }, "solution"),
    }),
  };
}

/** Stores `moves` as the draft's solution (one undoable edit) and says so, and that a saved level needs saving again. */
function storeSolution(draft, moves) {
  draft.edit((pack) => {
    pack.levels[0].solution = moves;
  }, "solution");
  const again = draft.pack.savedAs ? " Save to keep it in your library." : "";
  toast(`Stored ${moves.length} moves as the level's solution.${again}`);
}

/** A one-level pack as a test-play win is kept with: everything but its stored solution. */
function levelKey(pack) {
  const copy = JSON.parse(JSON.stringify(pack));
  delete copy.levels?.[0]?.solution;
  return JSON.stringify(copy);
}

/** What each top-bar button (`data-action`) does. */
function topbarActions({ draft, modes, panels, selectTab, undo, redo }) {
  return {
    undo,
    redo,
    "test-play": () => modes.toggle(),
    check: () => {
      modes.exitPlay();
      selectTab("check", { focus: false });
      panels.checkPanel.start();
    },
    solve: () => {
      modes.exitPlay();
      selectTab("solve", { focus: false });
      panels.solvePanel.start();
    },
    "show-save": () => selectTab("save"),
    new: () => {
      // Undo brings the last level back, so New needs no question.
      draft.replace(emptyPack());
      toast("Started an empty level. Undo (Ctrl+Z) brings the last one back.");
    },
  };
}

/** Fetches the words each vocabulary feature adds and redraws with them; offline, the core words still work. */
function loadBuiltInWords(view, signal, afterRender) {
  api
    .vocabularies()
    .then((words) => {
      if (signal.aborted) return;
      view.builtInWords = words;
      view.render();
      afterRender();
    })
    .catch(() => {
      // Offline: the core words still work; the Tier-1 ones appear with the next visit.
    });
}
