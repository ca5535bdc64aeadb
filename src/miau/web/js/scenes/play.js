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

import * as api from "../api.js";
import { TurnAnnouncer } from "../announce.js";
import { Board, prefersReducedMotion, SLIDE_MS } from "../board.js";
import { GameController } from "../controller.js";
import { confirmDialog, shareDialog } from "../dialog.js";
import { h, keyLabel } from "../dom.js";
import * as port from "../engine-port.js";
import { createInput } from "../input.js";
import { dpad } from "../pad.js";
import { Ledger } from "../ledger.js";
import { problemList } from "../problems.js";
import { sound } from "../sound.js";
import { soundControl } from "../sound-control.js";
import { worldCompletion } from "../progress.js";
import { clearToasts, toast } from "../toast.js";
import { CORE_PROPERTIES, Vocabulary, wordTile } from "../words.js";
import { showWin } from "./win.js";

export { MAX_WAITING_INTENTS } from "../controller.js";
const SEEN_WORDS_KEY = "miau.seenWords";
const SHARE_KEY = "l";

function actionButton(intent, label, key, extra = {}) {
  return h(
    "button",
    { class: "button action", type: "button", dataset: { intent, ...extra } },
    keyLabel(label, key),
  );
}

function seenWords() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SEEN_WORDS_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function rememberWords(words) {
  try {
    localStorage.setItem(SEEN_WORDS_KEY, JSON.stringify([...words]));
  } catch {
    // Private windows may refuse storage; the card simply shows again.
  }
}

/**
 * The world and level of a one-level pack as the API would serve them, for a
 * draft that no server has stored.
 */
function draftWorldAndLevel(packJson) {
  const manifest = packJson.manifest || {};
  const palette = {};
  for (const [noun, glyph] of Object.entries(packJson.palette || {})) {
    palette[noun] =
      typeof glyph === "string" ? { glyph, faces: null } : { glyph: glyph.glyph, faces: glyph.faces ?? null };
  }
  const source = (packJson.levels || [])[0] || {};
  const automata = source.automata || [];
  const pairs = source.pairs || [];
  const declared = [...automata.map((record) => record.property), ...pairs.flatMap((pair) => pair.words || [])];
  const world = {
    id: manifest.id ?? null,
    name: manifest.name || "Draft",
    description: manifest.description || "",
    palette,
    glossary: packJson.properties || {},
  };
  const level = {
    pack: null,
    id: source.id,
    title: source.title || "Untitled level",
    hint: source.hint || null,
    tier: source.tier || "required",
    width: source.width,
    height: source.height,
    objects: source.objects || [],
    automata,
    pairs,
    properties: [...CORE_PROPERTIES, ...new Set(declared)],
    next: null,
  };
  return { world, level };
}

/**
 * Whether this browser opens every level, locked or not: `localStorage`
 * `miau.unlockAll` set to "1" (for authors checking a world, and for the
 * browser tests, which jump straight to any level). The map still shows locks.
 */
function unlockedEverywhere() {
  try {
    return localStorage.getItem("miau.unlockAll") === "1";
  } catch {
    return false;
  }
}

function playKind(params) {
  if (params.draft) return "draft";
  if (params.share !== undefined) return "shared";
  return "level";
}

/** Draws the play scene of a level, a shared level or a draft into `root` (see the top of this file). */
export async function mount(root, params, context) {
  const { navigate, signal } = context;
  const kind = playKind(params);
  const { pack, level: levelId, share: shareCode } = params;
  const backToMap = () => {
    if (kind === "draft") {
      if (context.onBack) context.onBack();
      else navigate("/edit");
    } else if (kind === "shared") navigate("/worlds");
    else navigate(`/world/${encodeURIComponent(pack)}`);
  };
  const backWord = { level: " Levels", shared: " Worlds", draft: " Editor" }[kind];
  const mapLabel = { level: "Back to the map", shared: "Back to worlds", draft: "Back to the editor" }[kind];
  const playAgain = () => {
    if (kind === "shared") navigate(`/shared/${shareCode}`);
    else navigate(`/play/${encodeURIComponent(pack)}/${encodeURIComponent(levelId)}`);
  };
  root.className = "scene play-scene";
  root.dataset.pending = "0";
  root.dataset.ready = "false";
  root.dataset.kind = kind;

  const worldName = h("span", { class: "play-world" }, "");
  const levelTitle = h("h1", { class: "play-title" }, "Loading…");
  const moveCount = h("strong", { id: "move-count", class: "move-count" }, "0");
  const connection = h("span", { class: "connection", role: "status", hidden: true }, "Reconnecting…");
  const boardArea = h("div", { class: "board-area" });
  const lossBanner = h(
    "div",
    { class: "loss-banner", role: "alert", hidden: true },
    h("p", { class: "loss-title" }, "Nothing is YOU"),
    h("p", { class: "loss-text" }, "Undo the last move or restart the level."),
    h(
      "div",
      { class: "loss-actions" },
      actionButton("undo", "Undo", "Z", { primary: "true" }),
      actionButton("reset", "Restart", "R"),
    ),
  );
  const ledgerList = h("ol", { class: "ledger", "aria-label": "Active rules" });
  const glossaryList = h("ul", { class: "glossary" });
  const wordsPanel = h(
    "section",
    { class: "panel words-panel", hidden: true },
    h("h2", {}, "Words here"),
    glossaryList,
  );
  const hint = h("p", { class: "hint" });
  const hintPanel = h("section", { class: "panel hint-panel", hidden: true }, h("h2", {}, "Hint"), hint);

  root.append(
    h(
      "header",
      { class: "topbar" },
      h("button", { class: "button ghost back", type: "button", dataset: { intent: "back" } }, [
        h("span", { class: "label" }, "‹", h("span", { class: "back-word" }, backWord)),
        h("kbd", {}, "Esc"),
      ]),
      h("div", { class: "play-titles" }, worldName, levelTitle),
      h("div", { class: "move-counter" }, h("span", { class: "label" }, "Moves"), moveCount),
      h(
        "div",
        { class: "play-actions" },
        actionButton("undo", "Undo", "Z"),
        actionButton("reset", "Restart", "R"),
        actionButton("wait", "Wait", "Space"),
        h(
          "button",
          { class: "button action share-button", type: "button", dataset: { action: "share" } },
          keyLabel("Share", SHARE_KEY.toUpperCase()),
        ),
        soundControl(sound(), signal),
      ),
      connection,
    ),
    h(
      "main",
      { class: "play-main" },
      h("div", { class: "board-wrap" }, boardArea, lossBanner),
      // Under the board, before the rules: on a phone the rules follow in the
      // page, so the pad stays where it is however many rules there are.
      dpad(),
      h(
        "aside",
        { class: "side", "aria-label": "Rules and hints" },
        h("section", { class: "panel rules-panel" }, h("h2", {}, "Rules"), ledgerList),
        wordsPanel,
        hintPanel,
      ),
    ),
  );

  signal.addEventListener("abort", () => port.close());
  let world;
  let level;
  let opened;
  let sharedPack = null; // the one-level pack a share link carries
  try {
    if (kind === "shared") {
      const answer = await api.openShared(shareCode);
      if (signal.aborted) return;
      ({ world, level } = answer);
      sharedPack = answer.pack;
      opened = await port.open({ share: shareCode });
    } else if (kind === "draft") {
      ({ world, level } = draftWorldAndLevel(params.draft));
      opened = await port.open({ draft: params.draft });
    } else {
      [world, level] = await Promise.all([api.world(pack), api.level(pack, levelId)]);
      if (signal.aborted) return;
      // A locked level opened by its address says what opens it, and no game starts.
      if (level.locked && !unlockedEverywhere()) {
        showLocked(world, level);
        return;
      }
      opened = await port.open({ pack, level: levelId });
    }
  } catch (error) {
    if (signal.aborted) return;
    showOpenError(error);
    return;
  }
  if (signal.aborted) return;

  function showLocked(lockedWorld, lockedLevel) {
    document.title = `${lockedLevel.title} (locked) · Miau`;
    worldName.textContent = lockedWorld.name;
    levelTitle.textContent = lockedLevel.title;
    root.dataset.failed = "true";
    root.dataset.locked = "true";
    boardArea.replaceChildren(
      h(
        "div",
        { class: "card error-card message-panel locked-panel", role: "alert", dataset: { failure: "locked" } },
        h("h2", { class: "message-heading" }, "🔒 This level is locked"),
        h("p", { class: "message-text" }, `${lockedLevel.unlockedBy || "It opens later"}.`),
        h(
          "div",
          { class: "message-actions" },
          h("button", { class: "button primary", type: "button", onclick: backToMap }, mapLabel),
        ),
      ),
    );
    boardArea.querySelector(".message-actions .button")?.focus();
    window.addEventListener("keydown", (event) => event.key === "Escape" && backToMap(), { signal });
  }

  function showOpenError(error) {
    const refusedLink = kind === "shared" && error?.status >= 400 && error?.status < 500;
    const heading = refusedLink
      ? "This link does not open a level"
      : kind === "draft"
        ? "This draft cannot be played yet"
        : "This level could not be opened";
    levelTitle.textContent = kind === "shared" ? "A shared link" : heading;
    root.dataset.failed = "true";
    const problems = error?.body?.problems || [];
    const retry =
      refusedLink || kind === "draft"
        ? null
        : h(
            "button",
            { class: "button", type: "button", onclick: () => navigate(location.hash.slice(1)) },
            "Try again",
          );
    boardArea.replaceChildren(
      h(
        "div",
        {
          class: "card error-card message-panel",
          role: "alert",
          dataset: { failure: refusedLink ? "link" : "open" },
        },
        h("h2", { class: "message-heading" }, heading),
        h("p", { class: "message-text" }, error?.message || "Something went wrong."),
        problems.length ? problemList(problems.slice(0, 8)) : null,
        problems.length > 8 ? h("p", { class: "message-more" }, `… and ${problems.length - 8} more.`) : null,
        refusedLink
          ? h(
              "p",
              { class: "message-note" },
              "Nothing was saved: your library and progress are as they were.",
            )
          : null,
        h(
          "div",
          { class: "message-actions" },
          retry,
          h(
            "button",
            { class: `button${retry ? " ghost" : " primary"}`, type: "button", onclick: backToMap },
            mapLabel,
          ),
        ),
      ),
    );
    worldName.textContent = kind === "shared" ? "Shared level" : worldName.textContent;
    boardArea.querySelector(".message-actions .button:last-child")?.focus();
    const escape = (event) => event.key === "Escape" && backToMap();
    window.addEventListener("keydown", escape, { signal });
  }

  document.title = `${level.title} · Miau`;
  worldName.textContent = kind === "shared" ? "Shared level" : kind === "draft" ? "Test play" : world.name;
  levelTitle.textContent = level.title;
  // A phone gives the board a height from the level's shape alone (miau.css), never from the rules.
  root.style.setProperty("--level-aspect", String(level.height / level.width));
  if (level.hint) {
    hint.textContent = level.hint;
    hintPanel.hidden = false;
  }
  const vocabulary = new Vocabulary(level, world);
  const board = new Board(boardArea, { vocabulary, palette: world.palette });
  const ledger = new Ledger(ledgerList, { vocabulary, onHighlight: (ids) => board.highlight(ids) });
  let won = false;
  let closeWin = null;
  const controller = new GameController({
    port,
    board,
    ledger,
    announcer: new TurnAnnouncer(),
    sound: sound(),
    onState: (state) => {
      moveCount.textContent = String(state.moveCount);
      lossBanner.hidden = !state.controlLost || state.won;
      root.dataset.controlLost = String(Boolean(state.controlLost));
    },
    onPending: (count) => {
      root.dataset.pending = String(count);
    },
    onWin: (progress) => onWin(progress),
    onError: (error) => toast(error?.message || "That did not work.", { tone: "error" }),
  });
  // Declared words (automata and pair properties) get a card beside the
  // board; the first time a player meets one it is marked new, and on a
  // narrow screen, where the side panel is below the fold, it also pops up.
  function showWords(entities) {
    const declared = [
      ...new Set(
        entities.filter((e) => e.kind === "word" && vocabulary.isDeclared(e.text)).map((e) => e.text),
      ),
    ];
    const seen = seenWords();
    const fresh = new Set(declared.filter((word) => !seen.has(word)));
    wordsPanel.hidden = declared.length === 0;
    glossaryList.replaceChildren(
      ...declared.map((word) =>
        h(
          "li",
          { class: "glossary-entry", dataset: { word, new: String(fresh.has(word)) } },
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
          fresh.has(word) ? h("span", { class: "badge new" }, "New") : null,
        ),
      ),
    );
    if (!fresh.size) return;
    for (const word of fresh) seen.add(word);
    rememberWords(seen);
    if (!window.matchMedia("(max-width: 860px)").matches) return;
    for (const word of fresh) {
      toast(
        [
          h("span", { class: "toast-kicker" }, "New word"),
          wordTile(word, vocabulary, { chip: true }),
          h("span", {}, vocabulary.describe(word) || ""),
        ],
        {
          tone: "word",
          duration: 7000,
        },
      );
    }
  }

  function onWin(progress) {
    won = true;
    input.setEnabled(false);
    // The last level of a world (its next is elsewhere, or none) shows the world's moment.
    const lastOfWorld = kind === "level" && (!level.next || level.next.pack !== pack);
    const completion = lastOfWorld
      ? api
          .worlds()
          .then((list) => worldCompletion(list, pack, level.next))
          .catch(() => null)
      : Promise.resolve(null);
    const open = async () => {
      const done = await completion;
      if (signal.aborted) return;
      clearToasts(); // a word card or resume note would cover the card's buttons on a phone
      closeWin = showWin(root, {
        completion: done,
        title: level.title,
        moves: controller.state.moveCount,
        bestMoves: progress?.bestMoves ?? null,
        onNext: level.next
          ? () =>
              navigate(`/play/${encodeURIComponent(level.next.pack)}/${encodeURIComponent(level.next.level)}`)
          : null,
        onMap: backToMap,
        onReplay: kind === "draft" ? restartDraft : playAgain,
        mapLabel,
        signal,
      });
    };
    if (prefersReducedMotion()) open();
    else setTimeout(open, SLIDE_MS + 180);
  }

  let sharing = false;
  async function share() {
    if (sharing) return;
    sharing = true;
    input.setEnabled(false);
    root.dataset.sharing = "true";
    try {
      let code = shareCode;
      if (kind !== "shared") {
        const onePack = kind === "draft" ? params.draft : await api.levelPack(pack, levelId);
        code = (await api.encodeShare(onePack)).code;
      }
      if (signal.aborted) return;
      await shareDialog({ title: level.title, link: api.shareLink(code), signal });
    } catch (error) {
      if (!signal.aborted) toast(error?.message || "This level cannot be shared.", { tone: "error" });
    } finally {
      sharing = false;
      root.dataset.sharing = "false";
      if (!signal.aborted && !won) input.setEnabled(true);
    }
  }

  async function restartDraft() {
    closeWin?.();
    closeWin = null;
    try {
      const again = await port.open({ draft: params.draft });
      if (signal.aborted) return;
      won = false;
      controller.start(again.state);
      input.setEnabled(true);
    } catch (error) {
      if (!signal.aborted) toast(error?.message || "The draft could not be restarted.", { tone: "error" });
    }
  }

  function onIntent(intent, { repeat }) {
    if (intent.intent === "back") {
      backToMap();
      return;
    }
    if (won) return;
    if (intent.intent === "reset" && controller.restartIsFinal) {
      askThenRestart(intent);
      return;
    }
    controller.request(intent, { repeat });
  }

  // A resumed game's earlier moves are not known to the page, so its restart
  // cannot be undone: the player is asked first (a restart in the same visit
  // is undoable and needs no question).
  let asking = false;
  async function askThenRestart(intent) {
    if (asking) return;
    asking = true;
    input.setEnabled(false);
    const count = controller.state.moveCount;
    const yes = await confirmDialog({
      title: "Restart this level?",
      text: `Undo cannot bring back the ${count} move${count === 1 ? "" : "s"} made before this page was reloaded.`,
      confirm: "Restart",
      tone: "danger",
      signal,
    });
    asking = false;
    if (signal.aborted) return;
    input.setEnabled(true);
    if (yes) controller.request(intent, { repeat: false });
  }

  const input = createInput({ onIntent, swipeSurface: boardArea, buttonRoot: root });
  root.querySelector(".share-button").addEventListener("click", share);
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key.toLowerCase() !== SHARE_KEY || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || closeWin) return;
      event.preventDefault();
      share();
    },
    { signal },
  );
  const stopReopened = port.onReopened((next) => {
    root.dataset.reopened = String(Number(root.dataset.reopened || "0") + 1);
    controller.reopened(next);
  });
  const stopStatus = port.onStatus((status) => {
    connection.hidden = status !== "offline";
    root.dataset.connection = status;
  });
  signal.addEventListener("abort", () => {
    controller.close();
    input.destroy();
    board.destroy();
    stopReopened();
    stopStatus();
    closeWin?.();
  });

  controller.start(opened.state, { title: level.title });
  showWords(opened.state.entities);
  root.dataset.ready = "true";
  root.dataset.resumed = String(opened.resumed);
  if (opened.resumed && opened.state.moveCount > 0) {
    toast(`Resumed at move ${opened.state.moveCount}. Restart with R.`, { duration: 3500 });
  }
  // The saved game could not be resumed and was set aside (docs/protocol.md, "opened").
  if (typeof opened.notice === "string") toast(opened.notice, { tone: "error", duration: 10000 });

  return {
    /** Plays `intent` through the scene's queue; resolves with `{event, state, progress}` once drawn. */
    send(intent) {
      if (signal.aborted) return Promise.reject(new Error("The play scene has closed."));
      return controller.send(intent);
    },
  };
}
