// The win scene, shown over the board: the level, moves taken, best so far,
// the shortest known length when the level has one (with "Play again for
// the shortest" when the player was over it), the next level and the way
// back to the map. The last level of a world also shows the world's
// completion and the player's overall progress.

import { h, keyLabel } from "../dom.js";

/**
 * Shows the win overlay in `root`. `onNext` is null when the world has no
 * next level; `mapLabel` names the way back (the map, worlds, the editor).
 * `shortest` is the fewest moves known to win the level (the API's
 * `shortest`), or null: then the card says nothing of it. Over it, "Play
 * again" becomes "Play again for the shortest".
 * `completion` (progress.js `worldCompletion`) turns it into the world's
 * moment: complete, or how many required levels are left.
 * Enter goes on, Escape goes back to the map, R plays again.
 * Returns a function that removes it.
 */
export function showWin(
  root,
  {
    title,
    moves,
    bestMoves,
    shortest = null,
    onNext,
    onMap,
    onReplay,
    signal,
    mapLabel = "Back to the map",
    completion = null,
  },
) {
  const isBest = bestMoves == null || moves <= bestMoves;
  const over = shortest != null && moves > shortest;
  // Into the next world only when this one is done; otherwise back to its map.
  const goesOn = onNext && (!completion || completion.complete);
  const nextLabel = completion?.nextWorld ? `Next world: ${completion.nextWorld.name}` : "Next level";
  const next = goesOn
    ? h(
        "button",
        { class: "button primary big", type: "button", onclick: onNext },
        keyLabel(nextLabel, "Enter"),
      )
    : null;
  const map = h(
    "button",
    { class: `button${goesOn ? "" : " primary big"}`, type: "button", onclick: onMap },
    keyLabel(mapLabel, "Esc"),
  );
  const replay = h(
    "button",
    { class: `button${over ? "" : " ghost"}`, type: "button", onclick: onReplay, dataset: { action: "replay" } },
    keyLabel(over ? "Play again for the shortest" : "Play again", "R"),
  );
  const overlay = h(
    "div",
    {
      class: "overlay win-overlay",
      role: "dialog",
      "aria-modal": "true",
      "aria-labelledby": "win-heading",
      dataset: { worldComplete: String(Boolean(completion?.complete)) },
    },
    h(
      "div",
      { class: "win-card" },
      completion ? worldPanel(completion) : null,
      h("p", { class: "win-kicker" }, "Solved"),
      h("h2", { id: "win-heading" }, title),
      h(
        "dl",
        { class: "win-stats" },
        h("div", {}, h("dt", {}, "Moves"), h("dd", { "data-stat": "moves" }, String(moves))),
        h(
          "div",
          {},
          h("dt", {}, "Best"),
          h("dd", { "data-stat": "best" }, bestMoves == null ? String(moves) : String(bestMoves)),
        ),
        shortest == null
          ? null
          : h("div", {}, h("dt", {}, "Shortest"), h("dd", { "data-stat": "shortest" }, String(shortest))),
      ),
      shortestNote(moves, shortest),
      // Matching the shortest says more than a personal best: one line, not two.
      isBest && !(shortest != null && moves <= shortest) ? h("p", { class: "win-note" }, "Your best so far.") : null,
      h("div", { class: "win-actions" }, next, map, replay),
    ),
  );
  root.append(overlay);
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort());
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const onButton = event.target instanceof HTMLButtonElement && overlay.contains(event.target);
      if (event.key === "Enter" && !onButton) {
        event.preventDefault();
        (goesOn ? onNext : onMap)();
      } else if (event.key === "Escape") {
        event.preventDefault();
        onMap();
      } else if (event.key.toLowerCase() === "r") {
        event.preventDefault();
        onReplay();
      }
    },
    { signal: controller.signal },
  );
  (next || map).focus();
  return () => {
    controller.abort();
    overlay.remove();
  };
}

/**
 * The moves against the shortest known, in plain words (null when no
 * shortest is known): matched, beaten (a stored solution longer than the
 * real shortest), or how many moves over.
 */
export function shortestWords(moves, shortest) {
  if (shortest == null) return null;
  if (moves === shortest) return `You matched the shortest known solution: ${plural(shortest, "move")}.`;
  if (moves < shortest) return `Shorter than the shortest known solution (${plural(shortest, "move")}).`;
  const extra = moves - shortest;
  return `${plural(extra, "move")} over the shortest known solution (${plural(shortest, "move")}).`;
}

function shortestNote(moves, shortest) {
  const words = shortestWords(moves, shortest);
  if (words === null) return null;
  return h("p", { class: "win-shortest", dataset: { matched: String(moves <= shortest) } }, words);
}

function plural(count, word) {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The world's moment: complete (with what it opened and the overall figures), or what is left. */
function worldPanel({ world, complete, remaining, overall, opened = [] }) {
  const share = overall.levels ? Math.round((overall.won / overall.levels) * 100) : 0;
  return h(
    "section",
    { class: "world-complete", dataset: { complete: String(complete) } },
    h("p", { class: "win-kicker world-kicker" }, complete ? "World complete" : "End of the world"),
    h(
      "h3",
      { class: "world-complete-title" },
      complete
        ? `${world.name}: every required level won`
        : `${world.name}: ${remaining} required level${remaining === 1 ? "" : "s"} still to win`,
    ),
    complete ? openedLine(opened) : null,
    h(
      "p",
      { class: "world-complete-figures" },
      `${world.won} of ${world.levels} levels here · ${overall.won} of ${overall.levels} in all · ` +
        `${overall.worldsComplete} of ${overall.worlds} worlds complete`,
    ),
    h(
      "div",
      {
        class: "bar",
        role: "progressbar",
        "aria-label": "Levels won in all",
        "aria-valuemin": "0",
        "aria-valuemax": String(overall.levels),
        "aria-valuenow": String(overall.won),
      },
      h("span", { class: "bar-fill", style: { width: `${share}%` } }),
    ),
  );
}

/** What completing the world opened: the worlds that wait for it, by name (nothing when none do). */
function openedLine(opened) {
  if (!opened.length) return null;
  const names = opened.map((entry) => entry.name);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
  return h("p", { class: "world-complete-opened", dataset: { opened: String(names.length) } }, `Opened: ${listed}.`);
}
