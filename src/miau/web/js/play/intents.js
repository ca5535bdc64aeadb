// Where the player's intents go: Back leaves, nothing plays once the level
// is won, a restart that cannot be undone asks first, and the rest go to
// the game controller's queue.

/**
 * The `onIntent` of input.js for one level: `controller` plays intents,
 * `isWon()` says whether the level is won, `backToMap()` leaves and
 * `askThenRestart(intent)` handles a restart the controller cannot undo.
 */
export function intentRouter({ controller, isWon, backToMap, askThenRestart }) {
  return (intent, { repeat }) => {
    if (intent.intent === "back") {
      backToMap();
      return;
    }
    if (isWon()) return;
    if (intent.intent === "reset" && controller.restartIsFinal) {
      askThenRestart(intent);
      return;
    }
    controller.request(intent, { repeat });
  };
}

/**
 * A resumed game's earlier moves are not known to the page, so its restart
 * cannot be undone: the player is asked first (`confirm`, dialog.js
 * `confirmDialog`) with `controls` off, and only a yes restarts. One
 * question at a time.
 */
export function restartQuestion({ controller, controls, confirm, signal }) {
  let asking = false;
  return async (intent) => {
    if (asking) return;
    asking = true;
    controls.setEnabled(false);
    const count = controller.state.moveCount;
    const yes = await confirm({
      title: "Restart this level?",
      text: `Undo cannot bring back the ${count} move${count === 1 ? "" : "s"} made before this page was reloaded.`,
      confirm: "Restart",
      tone: "danger",
      signal,
    });
    asking = false;
    if (signal.aborted) return;
    controls.setEnabled(true);
    if (yes) controller.request(intent, { repeat: false });
  };
}

/**
 * Holds the intents a player sends before the level's game is open (the
 * page is drawn, the engine is still starting), so that none is lost: once
 * `release(route)` is called, every held intent goes to `route` in the order
 * it came, and later ones go straight to it. Back is never held: it leaves at
 * once through `onBack()`. Repeats of a held key are not held (they would
 * only pile up), and at most `limit` intents are kept, the earliest first.
 */
export class EarlyIntents {
  constructor({ onBack, onHeld = () => {}, limit = 5 }) {
    this.onBack = onBack;
    this.onHeld = onHeld;
    this.limit = limit;
    this.held = [];
    this.route = null;
  }

  /** The `onIntent` of input.js: passes the intent on, or holds it until the game is open. */
  take(intent, options = { repeat: false }) {
    if (this.route) {
      this.route(intent, options);
      return;
    }
    if (intent.intent === "back") {
      this.onBack();
      return;
    }
    if (options.repeat || this.held.length >= this.limit) return;
    this.held.push(intent);
    this.onHeld(this.held.length);
  }

  /** The game is open: plays the held intents through `route` in order, and every later one. */
  release(route) {
    this.route = route;
    for (const intent of this.held.splice(0)) route(intent, { repeat: false });
    this.onHeld(0);
  }

  /** Forgets the held intents (the level could not be played). */
  discard() {
    this.held.length = 0;
    this.onHeld(0);
  }
}
