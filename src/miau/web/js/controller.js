// The game controller: one level's play loop, apart from the page that shows
// it. It queues the player's intents, sends them through the engine port one
// at a time (a few may wait their turn, a held key never builds a backlog),
// and hands each reply to the board, the ledger, the announcer and the
// sound. The play scene and the editor's test-play build their own DOM and
// wire one of these; the controller touches no DOM itself, so Node's test
// runner drives it with a fake port and fake views (tests/web/).
//
// Restart is undoable: the controller remembers the moves played before a
// restart, and an undo with nothing left to undo after it plays them again
// (so the engine's own undo history comes back too, and a win after it
// counts like any other). A game resumed after a reload, whose earlier moves
// the page does not know, restarts for good, as before.

import { MOVE_LETTERS } from "./vocabulary.js";

/** How many intents may wait behind the one whose reply is pending. */
export const MAX_WAITING_INTENTS = 4;

const WAIT = "wait";

// The engine's move alphabet (vocabulary.js), letter to intent.
const INTENT_OF_LETTER = Object.fromEntries(
  Object.entries(MOVE_LETTERS).map(([name, letter]) => [
    letter,
    name === WAIT ? { intent: WAIT } : { intent: "step", direction: name },
  ]),
);

/** The move letter of a step or wait intent (`U D L R W`), or null for any other intent. */
export function letterOf(intent) {
  if (intent.intent === WAIT) return MOVE_LETTERS[WAIT];
  if (intent.intent === "step" && intent.direction !== WAIT) return MOVE_LETTERS[intent.direction] ?? null;
  return null;
}

/** The intent of a move letter (`U D L R W`), or null. */
export function intentOfLetter(letter) {
  const intent = INTENT_OF_LETTER[String(letter).toUpperCase()];
  return intent ? { ...intent } : null;
}

const ignore = () => {};

/**
 * One level's play loop.
 *
 * - `port`: `{send(intent) -> Promise<{event, state, progress}>, ask(query)
 *   -> Promise<reply>}` (the engine port module, or a fake);
 * - `board`: `{draw(state), apply(event, state), finishAnimations()}`;
 * - `ledger`: `{show(state)}`; `announcer`: `{opened(title, state),
 *   turn(event, state, previous, intent)}`; `sound`: `{turn(event, state,
 *   previous)}` (each optional);
 * - `onState(state)`: after every state drawn; `onWin(progress)`: once a
 *   game turns won; `onPending(count)`: the intents not answered yet;
 *   `onError(error)`: a turn that failed (not a dropped connection);
 * - `afterWin`: the intents still taken once the level is won (the
 *   editor's test-play keeps undo and restart).
 */
export class GameController {
  constructor({
    port,
    board,
    ledger = null,
    announcer = null,
    sound = null,
    onState = ignore,
    onWin = ignore,
    onPending = ignore,
    onError = ignore,
    afterWin = [],
    maxWaiting = MAX_WAITING_INTENTS,
  }) {
    this.port = port;
    this.board = board;
    this.ledger = ledger;
    this.announcer = announcer;
    this.sound = sound;
    this.onState = onState;
    this.onWin = onWin;
    this.onPending = onPending;
    this.onError = onError;
    this.afterWin = new Set(afterWin);
    this.maxWaiting = maxWaiting;
    this.state = null;
    this.won = false;
    this.closed = false;
    this.queue = []; // {intent, waiter?}
    this.waitingForReply = false;
    this.inFlight = null; // the entry whose reply is awaited
    // The move letters of the engine's undo history, when known (null after a resume or restore).
    this.moves = null;
    // Where the game stood before the last restart: {state, moves}, while undo can bring it back.
    this.beforeRestart = null;
  }

  /**
   * Whether a restart now could not be taken back by undo: the game has moves
   * whose letters the page does not know (it was resumed after a reload), so
   * the scene asks before it restarts.
   */
  get restartIsFinal() {
    return this.moves === null && (this.state?.moveCount ?? 0) > 0;
  }

  /** Intents queued or waiting for their reply. */
  get pending() {
    return this.queue.length + (this.waitingForReply ? 1 : 0);
  }

  /** Draws the state a level opened with; `title` is announced with its rules. */
  start(state, { title = null } = {}) {
    this.won = false;
    this.beforeRestart = null;
    this.moves = state.moveCount === 0 || state.historyLength === 0 ? [] : null;
    this.show(state, null);
    if (title !== null) this.announcer?.opened(title, state);
    if (state.won) this.markWon(null);
  }

  /** Draws a state the port re-opened by itself after a drop; waiting intents are dropped. */
  reopened(state) {
    this.dropQueue(null);
    if (!this.won) this.show(state, null);
  }

  /**
   * Takes an intent from the player's input. `repeat` marks the automatic
   * repeat of a held key or pad button: it is skipped while anything waits,
   * so holding never builds a backlog. Returns whether the intent was queued.
   */
  request(intent, { repeat = false } = {}) {
    if (this.closed) return false;
    if (this.won && !this.afterWin.has(intent.intent)) return false;
    // The player has moved on: the running animation ends now, not when the
    // reply comes, so the next turn is drawn in the first frame after it.
    this.board.finishAnimations();
    if (repeat && this.queue.length > 0) return false;
    if (this.queue.length >= this.maxWaiting) return false;
    this.queue.push({ intent });
    this.changedPending();
    this.pump();
    return true;
  }

  /** Plays `intent` through the queue (a replay); resolves with the reply once drawn. */
  send(intent) {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error("The game has closed."));
        return;
      }
      this.board.finishAnimations();
      this.queue.push({ intent: { ...intent }, waiter: { resolve, reject } });
      this.changedPending();
      this.pump();
    });
  }

  /**
   * Asks the engine a question about the game (`"winnable"`) once the intents
   * queued before it are played, so the answer is about the board the
   * player sees then; resolves with the reply frame. Nothing is drawn.
   */
  ask(query) {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error("The game has closed."));
        return;
      }
      this.queue.push({ query, waiter: { resolve, reject } });
      this.changedPending();
      this.pump();
    });
  }

  /** Stops: nothing more is sent or drawn; waiting intents are rejected. */
  close() {
    this.closed = true;
    const error = new Error("The game has closed.");
    this.inFlight?.waiter?.reject(error);
    this.inFlight = null;
    this.dropQueue(error);
  }

  dropQueue(error) {
    for (const entry of this.queue.splice(0)) entry.waiter?.reject(error || new Error("Dropped."));
    this.changedPending();
  }

  changedPending() {
    this.onPending(this.pending);
  }

  show(state, event) {
    this.state = state;
    if (event) this.board.apply(event, state);
    else this.board.draw(state);
    this.ledger?.show(state);
    this.onState(state);
  }

  markWon(progress) {
    this.won = true;
    for (const entry of this.queue.splice(0)) entry.waiter?.reject(new Error("The level is won."));
    this.changedPending();
    this.onWin(progress);
  }

  async pump() {
    if (this.waitingForReply || !this.queue.length || this.closed) return;
    this.waitingForReply = true;
    const entry = this.queue.shift();
    this.inFlight = entry;
    this.changedPending();
    try {
      const reply = entry.query ? await this.port.ask(entry.query) : await this.turn(entry.intent);
      if (this.closed) return;
      entry.waiter?.resolve(reply);
    } catch (error) {
      if (this.closed) return;
      entry.waiter?.reject(error);
      this.dropQueue(error);
      if (error?.code !== "offline" && error?.code !== "superseded") this.onError(error);
    } finally {
      this.waitingForReply = false;
      this.inFlight = null;
      this.changedPending();
    }
    this.pump();
  }

  /** Sends one intent (an undo right after a restart takes the restart back) and draws the reply. */
  async turn(intent) {
    if (intent.intent === "undo" && this.beforeRestart && this.state?.historyLength === 0) {
      return this.undoRestart();
    }
    const previous = this.state;
    const reply = await this.port.send(intent);
    if (this.closed) return reply;
    this.record(intent, reply, previous);
    this.show(reply.state, reply.event);
    // A restart says whether undo can take it back.
    const said =
      intent.intent === "reset" ? { ...reply.event, restartUndoable: Boolean(this.beforeRestart) } : reply.event;
    this.announcer?.turn(said, reply.state, previous, intent);
    this.sound?.turn(reply.event, reply.state, previous);
    if (reply.state.won && !this.won) this.markWon(reply.progress);
    else if (!reply.state.won) this.won = false;
    return reply;
  }

  /** Keeps the move letters of the undo history and what a restart left behind. */
  record(intent, reply, previous) {
    if (!reply.event.accepted) return;
    if (intent.intent === "reset") {
      if (previous && previous.moveCount > 0 && this.moves?.length) {
        this.beforeRestart = { state: previous, moves: [...this.moves] };
      }
      this.moves = [];
      return;
    }
    if (intent.intent === "restore") {
      this.moves = null;
      return;
    }
    if (intent.intent === "undo") {
      this.moves?.pop();
      return;
    }
    const letter = letterOf(intent);
    if (letter && this.moves) this.moves.push(letter);
    // A move after a restart keeps the restart undoable only through the moves' own undos.
  }

  /** Brings back the game as it was before the last restart: its moves, played again. */
  async undoRestart() {
    const { moves } = this.beforeRestart;
    this.beforeRestart = null;
    const previous = this.state;
    let reply = null;
    for (const letter of moves) {
      reply = await this.port.send(intentOfLetter(letter));
      if (this.closed) return reply;
    }
    this.moves = [...moves];
    this.show(reply.state, null);
    const event = { ...reply.event, kind: "undo", undoneRestart: true, accepted: true };
    this.announcer?.turn(event, reply.state, previous, { intent: "undo" });
    this.sound?.turn(event, reply.state, previous);
    return { ...reply, event };
  }
}
