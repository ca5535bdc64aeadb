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
