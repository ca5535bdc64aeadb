// The win: the controls stop, and once the last slide has played the win
// card comes up over the board (with the world's moment after its last
// level, or after the win that completes its required levels). A draft's "Play again" opens the draft anew in place.

import { winCompletesWorld, worldCompletion } from "../progress.js";
import { showWin } from "../scenes/win.js";

/** How long after the winning move the card comes up: the slide, and a breath. */
export const WIN_CARD_DELAY_EXTRA_MS = 180;

/**
 * What the win card says of the world (progress.js `worldCompletion`), or
 * null: the last level of a world (its next is elsewhere, or none) shows
 * the world's moment, and so does the win that completes the world's
 * required levels (`world` is the world as the level opened with it,
 * whichever level that is, since required levels may be won in any
 * order); a failed request shows none.
 */
export function completionAfter(kind, level, pack, api, world = null) {
  if (kind !== "level") return Promise.resolve(null);
  const completes = winCompletesWorld(world, level.id);
  const lastOfWorld = !level.next || level.next.pack !== pack;
  if (!lastOfWorld && !completes) return Promise.resolve(null);
  return api
    .worlds()
    .then((list) => worldCompletion(list, pack, level.next, { completes }))
    .catch(() => null);
}

/**
 * The win of one level. `show(progress)` is the controller's `onWin`:
 * it turns `controls` off and, after `delay(open)` (the slide's length, or
 * at once with reduced motion), shows the card in `root` with `moves()`
 * moves. `won` says whether the level is won; `shown` whether the card is
 * up. `completion()` gives the world's moment (completionAfter).
 */
export class WinCeremony {
  constructor({ root, level, routes, onReplay, controls, moves, completion, clearToasts, delay, signal }) {
    this.root = root;
    this.level = level;
    this.routes = routes;
    this.onReplay = onReplay;
    this.controls = controls;
    this.moves = moves;
    this.completion = completion;
    this.clearToasts = clearToasts;
    this.delay = delay;
    this.signal = signal;
    this.won = false;
    this.closeCard = null;
  }

  get shown() {
    return Boolean(this.closeCard);
  }

  /** The level is won: stop the controls and bring the card up once the board is still. */
  show(progress) {
    this.won = true;
    this.controls.setEnabled(false);
    const completion = this.completion();
    const open = async () => {
      const done = await completion;
      if (this.signal.aborted) return;
      this.clearToasts(); // a word card or resume note would cover the card's buttons on a phone
      const level = this.level;
      this.closeCard = showWin(this.root, {
        completion: done,
        title: level.title,
        moves: this.moves(),
        bestMoves: progress?.bestMoves ?? null,
        // The API's one figure for the level (miau.play.shortest); a draft has none.
        shortest: Number.isInteger(level.shortest) ? level.shortest : null,
        onNext: level.next ? () => this.routes.nextLevel(level.next) : null,
        onMap: this.routes.backToMap,
        onReplay: this.onReplay,
        mapLabel: this.routes.mapLabel,
        signal: this.signal,
      });
    };
    this.delay(open);
  }

  /** Takes the card down (a replay, or the scene closing). */
  close() {
    this.closeCard?.();
    this.closeCard = null;
  }

  /** The level is in play again. */
  resume() {
    this.won = false;
  }
}

/**
 * Plays a draft again from its start: the card goes, `reopen()` opens the
 * draft anew and `start(state)` plays it with the controls on; a failure is
 * a toast.
 */
export async function restartDraft({ win, reopen, start, controls, signal, toast }) {
  win.close();
  try {
    const again = await reopen();
    if (signal.aborted) return;
    win.resume();
    start(again.state);
    controls.setEnabled(true);
  } catch (error) {
    if (!signal.aborted) toast(error?.message || "The draft could not be restarted.", { tone: "error" });
  }
}
