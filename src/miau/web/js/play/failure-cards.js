// What the play scene shows instead of a board when there is no game to
// play: a locked level's card, or why the level could not be opened.

import { h } from "../dom.js";
import { problemList } from "../problems.js";

const MAX_PROBLEMS_SHOWN = 8;

/**
 * The words and choices of the card for `error`, which refused opening a
 * level of `kind` (`levelId`, the route's level, names it in the top bar): a
 * shared link the server refused (4xx) is the link's fault and offers no
 * retry; a draft cannot be retried either.
 */
export function openFailure(kind, error, levelId = null) {
  const refusedLink = kind === "shared" && error?.status >= 400 && error?.status < 500;
  const heading = refusedLink
    ? "This link does not open a level"
    : kind === "draft"
      ? "This draft cannot be played yet"
      : "This level could not be opened";
  return {
    refusedLink,
    heading,
    // The top bar names what was asked for; the card's heading says what went wrong (never both the same).
    title: kind === "shared" ? "A shared link" : kind === "level" ? levelId || "Unknown level" : "Draft",
    worldName: kind === "shared" ? "Shared level" : null,
    retry: !(refusedLink || kind === "draft"),
    failure: refusedLink ? "link" : "open",
    message: error?.message || "Something went wrong.",
    problems: error?.body?.problems || [],
    // The server lists a refusal's first problems and counts the rest.
    moreProblems: Number.isInteger(error?.body?.moreProblems) ? error.body.moreProblems : 0,
  };
}

function escapeGoesBack(backToMap, signal) {
  window.addEventListener("keydown", (event) => event.key === "Escape" && backToMap(), { signal });
}

/** Shows on `page` that `level` of `world` is locked and what opens it; Escape goes back. */
export function showLocked(page, world, level, { routes, signal }) {
  document.title = `${level.title} (locked) · Miau`;
  page.header.showTitles(world.name, level.title);
  page.root.dataset.failed = "true";
  page.root.dataset.locked = "true";
  page.boardArea.replaceChildren(
    h(
      "div",
      { class: "card error-card message-panel locked-panel", role: "alert", dataset: { failure: "locked" } },
      h("h2", { class: "message-heading" }, "🔒 This level is locked"),
      h("p", { class: "message-text" }, `${level.unlockedBy || "It opens later"}.`),
      h(
        "div",
        { class: "message-actions" },
        h("button", { class: "button primary", type: "button", onclick: routes.backToMap }, routes.mapLabel),
      ),
    ),
  );
  page.boardArea.querySelector(".message-actions .button")?.focus();
  escapeGoesBack(routes.backToMap, signal);
}

/** Shows on `page` why the level could not be opened (`error`), with a retry where one can help. */
export function showOpenError(page, error, { kind, routes, retry, signal, levelId = null }) {
  const failure = openFailure(kind, error, levelId);
  page.header.showTitles(null, failure.title);
  page.root.dataset.failed = "true";
  const problems = failure.problems;
  const retryButton = failure.retry
    ? h("button", { class: "button", type: "button", onclick: retry }, "Try again")
    : null;
  page.boardArea.replaceChildren(
    h(
      "div",
      { class: "card error-card message-panel", role: "alert", dataset: { failure: failure.failure } },
      h("h2", { class: "message-heading" }, failure.heading),
      h("p", { class: "message-text" }, failure.message),
      problems.length ? problemList(problems.slice(0, MAX_PROBLEMS_SHOWN)) : null,
      problems.length > MAX_PROBLEMS_SHOWN || failure.moreProblems > 0
        ? h(
            "p",
            { class: "message-more" },
            `… and ${(Math.max(0, problems.length - MAX_PROBLEMS_SHOWN) + failure.moreProblems).toLocaleString("en")} more.`,
          )
        : null,
      failure.refusedLink
        ? h("p", { class: "message-note" }, "Nothing was saved: your library and progress are as they were.")
        : null,
      h(
        "div",
        { class: "message-actions" },
        retryButton,
        h(
          "button",
          { class: `button${retryButton ? " ghost" : " primary"}`, type: "button", onclick: routes.backToMap },
          routes.mapLabel,
        ),
      ),
    ),
  );
  page.header.showTitles(failure.worldName, null);
  page.boardArea.querySelector(".message-actions .button:last-child")?.focus();
  escapeGoesBack(routes.backToMap, signal);
}
