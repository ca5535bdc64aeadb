// The play scene: top bar, board, rule ledger, hint, loss banner, win
// overlay, Share. It turns input into intents, sends them through the engine
// port one at a time (a few may wait their turn) and hands each reply to the
// board, the ledger and the live region.
//
// Three kinds of level play here, by `params`:
// - `{pack, level}`: a shipped or library level (`#/play/PACK/LEVEL`);
// - `{share: CODE}`: the level a share link carries (`#/shared/CODE`);
// - `{draft: packJson}`: a one-level pack played in memory, for the editor's
//   test-play. The editor mounts the scene itself and passes `onBack` (Back,
//   Escape and the win card's way back call it) in the third argument; the
//   returned promise gives `{send(intent)}`, which plays an intent through
//   the scene's own queue (a replay), resolving with the reply once drawn.
//
// This file only wires the parts under js/play/, each of which does one job.

import * as api from "../api.js";
import { TurnAnnouncer } from "../announce.js";
import { Board, prefersReducedMotion, SLIDE_MS } from "../board.js";
import { GameController, MAX_WAITING_INTENTS } from "../controller.js";
import { confirmDialog, shareDialog } from "../dialog.js";
import * as port from "../engine-port.js";
import { createInput } from "../input.js";
import { Ledger } from "../ledger.js";
import { sound } from "../sound.js";
import { soundControl } from "../sound-control.js";
import { storedView } from "../stored-view.js";
import { clearToasts, toast } from "../toast.js";
import { Vocabulary } from "../words.js";
import { showLocked, showOpenError } from "../play/failure-cards.js";
import { bindHintKey } from "../play/hint-panel.js";
import { EarlyIntents, intentRouter, restartQuestion } from "../play/intents.js";
import { openLevel, openingNotes } from "../play/level-source.js";
import { PlayPage } from "../play/page.js";
import { playKind, playRoutes } from "../play/routes.js";
import { SHARE_KEY, bindShare, shareCodeFor } from "../play/share.js";
import { WIN_CARD_DELAY_EXTRA_MS, WinCeremony, completionAfter, restartDraft } from "../play/win-ceremony.js";
import { WinnableCheck } from "../play/winnable-check.js";
import { SeenWords, WordsPanel } from "../play/words-panel.js";

export { MAX_WAITING_INTENTS } from "../controller.js";

const isNarrow = () => window.matchMedia("(max-width: 860px)").matches;
const afterTheSlide = (open) =>
  prefersReducedMotion() ? open() : setTimeout(open, SLIDE_MS + WIN_CARD_DELAY_EXTRA_MS);

/** Draws the play scene of a level, a shared level or a draft into `root` (see the top of this file). */
export async function mount(root, params, context) {
  const { navigate, signal } = context;
  const kind = playKind(params);
  const routes = playRoutes(kind, params, context);
  const wordsPanel = new WordsPanel({ seenWords: new SeenWords(), isNarrow, toast });
  const soundSwitch = soundControl(sound(), signal);
  const header = { backWord: routes.backWord, shareKey: SHARE_KEY, soundSwitch };
  const page = new PlayPage(root, { kind, header, wordsPanel });

  // The input listens from the first frame: what the player presses while the
  // engine starts is held and played once the game is open, never dropped.
  const early = new EarlyIntents({
    onBack: routes.backToMap,
    onHeld: (count) => page.showStarting(count),
    limit: MAX_WAITING_INTENTS + 1,
  });
  const input = createInput({
    onIntent: (intent, options) => early.take(intent, options),
    swipeSurface: page.boardArea,
    buttonRoot: root,
  });
  signal.addEventListener("abort", () => {
    input.destroy();
    port.close();
  });
  // The static site's engine takes a second or more to start: meanwhile the
  // board this browser stored for the level is drawn, marked as not ready
  // (stored-view.js says why it is exactly the board the engine will open).
  let stored = null;
  let opening = true;
  if (kind === "level") {
    storedView(params.pack, params.level).then((view) => {
      if (view && opening && !signal.aborted) stored = drawStored(page, view);
    });
  }
  const dropStored = () => {
    opening = false;
    stored?.remove();
    stored = null;
  };
  signal.addEventListener("abort", dropStored);
  const giveUp = () => {
    dropStored();
    early.discard();
    input.destroy();
  };
  let found;
  try {
    found = await openLevel(kind, params, { api, port, signal });
  } catch (error) {
    const retry = () => navigate(location.hash.slice(1));
    giveUp();
    if (!signal.aborted) showOpenError(page, error, { kind, routes, retry, signal, levelId: params.level });
    return;
  }
  if (!found || signal.aborted) return;
  if (found.own) {
    // The author's own level through its share link: its library game, where a win counts.
    giveUp();
    const { own } = found;
    navigate(`/play/${encodeURIComponent(own.pack)}/${encodeURIComponent(own.level)}`, { replace: true });
    // After the switch: a new scene clears the toasts of the one it replaces.
    const where = `your level “${own.title}” of your pack “${own.packName}”`;
    toast(`This link is ${where}: you play it from your library, so a win counts there.`, { duration: 6000 });
    return;
  }
  const { world, level, opened } = found;
  if (found.locked) {
    giveUp();
    return showLocked(page, world, level, { routes, signal });
  }
  // The engine's board takes the stored one's place in the same task: no frame shows neither.
  dropStored();
  return playLevel(page, world, level, opened, { kind, params, routes, signal, input, early });
}

/**
 * Draws the board `view` (`{world, level, state}`, stored by this browser)
 * while the engine starts, with the move count, under the note that the game
 * is starting. Returns `{remove()}`, which takes it away.
 */
function drawStored(page, { world, level, state }) {
  page.showStoredLevel(world, level);
  const board = new Board(page.boardArea, { vocabulary: new Vocabulary(level, world), palette: world.palette });
  board.draw(state);
  page.showState(state);
  return {
    remove() {
      board.destroy();
      board.element.remove();
    },
  };
}

/**
 * Plays the opened game of `level` on `page`: the board, the ledger and the
 * controller, the input, the win, Share and the engine port's news, until
 * `signal` aborts. Returns mount's `{send(intent)}`.
 */
function playLevel(page, world, level, opened, { kind, params, routes, signal, input, early }) {
  const root = page.root;
  page.showLevel(world, level);
  const vocabulary = new Vocabulary(level, world);
  const board = new Board(page.boardArea, { vocabulary, palette: world.palette });
  const ledger = new Ledger(page.ledgerList, { vocabulary, onHighlight: (ids) => board.highlight(ids) });
  // The controller, the win and the input need one another: they meet
  // through closures, which only run once a turn is played.
  const winnable = new WinnableCheck({
    ask: () => controller.ask("winnable"),
    signal,
    isCovered: () => win.shown || root.dataset.sharing === "true",
  });
  root.querySelector(".side").prepend(winnable.element);
  const controller = new GameController({
    port,
    board,
    ledger,
    announcer: new TurnAnnouncer(),
    sound: sound(),
    onState: (state) => {
      page.showState(state);
      winnable.showState(state);
    },
    onPending: (count) => page.showPending(count),
    onWin: (progress) => win.show(progress),
    onError: (error) => toast(error?.message || "That did not work.", { tone: "error" }),
  });
  const controls = { setEnabled: (on) => input.setEnabled(on) };
  const reopen = () => port.open({ draft: params.draft });
  const start = (state) => controller.start(state);
  const replayDraft = () => restartDraft({ win, reopen, start, controls, signal, toast });
  const win = new WinCeremony({
    root,
    level,
    routes,
    controls,
    signal,
    clearToasts,
    delay: afterTheSlide,
    onReplay: kind === "draft" ? replayDraft : routes.playAgain,
    moves: () => controller.state.moveCount,
    completion: () => completionAfter(kind, level, params.pack, api, world),
  });
  const askThenRestart = restartQuestion({ controller, controls, confirm: confirmDialog, signal });
  const isWon = () => win.won;
  const onIntent = intentRouter({ controller, isWon, backToMap: routes.backToMap, askThenRestart });
  shareFromPage(page, level, { kind, params, controls, win, signal });
  bindHintKey({ keys: window, panel: page.hintPanel, isCovered: () => win.shown, signal });
  const stopReopened = port.onReopened((next) => {
    page.countReopened();
    controller.reopened(next);
  });
  const stopStatus = port.onStatus((status) => page.showConnection(status));
  signal.addEventListener("abort", () => {
    controller.close();
    board.destroy();
    stopReopened();
    stopStatus();
    win.close();
  });

  controller.start(opened.state, { title: level.title });
  page.wordsPanel.show(opened.state.entities, vocabulary);
  root.dataset.ready = "true";
  early.release(onIntent);
  root.dataset.resumed = String(opened.resumed);
  for (const [text, options] of openingNotes(opened)) toast(text, options);

  return {
    /** Plays `intent` through the scene's queue; resolves with `{event, state, progress}` once drawn. */
    send(intent) {
      if (signal.aborted) return Promise.reject(new Error("The play scene has closed."));
      return controller.send(intent);
    },
  };
}

/** Share on the page's button and key: the level's link in the share dialog. */
function shareFromPage(page, level, { kind, params, controls, win, signal }) {
  bindShare({
    root: page.root,
    button: page.header.shareButton,
    keys: window,
    title: level.title,
    code: () => shareCodeFor(kind, params, api),
    link: api.shareLink,
    dialog: shareDialog,
    controls,
    isWon: () => win.won,
    isCovered: () => win.shown,
    toast,
    signal,
  });
}
