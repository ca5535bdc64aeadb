// World select: the player's library first, as a compact row of its packs
// (their own and imported ones, with progress), so that a level just saved
// is in sight without scrolling; then one card per shipped world with its
// progress; then the ways into the library and the editor.

import * as api from "../api.js";
import { arrowFocus, h, keyLabel } from "../dom.js";
import { overallProgress } from "../progress.js";
import { toast } from "../toast.js";
import { errorCard, loadingCard, onEscape } from "./common.js";
import { isOwnPack } from "../own-packs.js";

/** Draws the world select scene into `root`. */
export async function mount(root, _params, { navigate, signal }) {
  document.title = "Worlds · Miau";
  root.className = "scene menu-scene worlds-scene";
  const back = h(
    "button",
    { class: "button ghost", type: "button", onclick: () => navigate("/") },
    keyLabel("Title", "Esc"),
  );
  const grid = h("ul", { class: "card-grid world-grid", role: "list" });
  const libraryGrid = h("ul", { class: "library-grid", role: "list" });
  const librarySection = h(
    "section",
    { class: "world-section library-strip", "aria-labelledby": "library-worlds-heading", hidden: true },
    h("h2", { class: "section-heading", id: "library-worlds-heading" }, "Your library"),
    libraryGrid,
  );
  const toolGrid = h("ul", { class: "card-grid world-grid tool-grid", role: "list" });
  const toolSection = h(
    "section",
    { class: "world-section", "aria-labelledby": "tool-heading", hidden: true },
    h("h2", { class: "section-heading", id: "tool-heading" }, "Library and editor"),
    toolGrid,
  );
  const body = h("main", { class: "scene-body" }, librarySection, grid, toolSection);
  const tools = h(
    "nav",
    { class: "head-tools", "aria-label": "Library and editor" },
    h(
      "a",
      { class: "button ghost", href: "#/library", dataset: { tool: "library-link" } },
      h("span", { "aria-hidden": "true" }, "📦"),
      " Library",
    ),
    h(
      "a",
      { class: "button ghost", href: "#/edit", dataset: { tool: "editor-link" } },
      h("span", { "aria-hidden": "true" }, "✎"),
      " Editor",
    ),
  );
  root.append(h("header", { class: "scene-head" }, back, h("h1", {}, "Worlds"), tools), body);
  onEscape(() => navigate("/"), signal);
  grid.append(loadingCard());
  let list;
  try {
    list = await api.worlds();
  } catch (error) {
    if (!signal.aborted) grid.replaceChildren(errorCard(error, () => navigate("/worlds")));
    return;
  }
  if (signal.aborted) return;
  const shipped = list.filter((world) => !world.imported);
  const imported = list.filter((world) => world.imported);
  grid.replaceChildren(...shipped.map((world, index) => worldCard(world, index)));
  grid.before(overallView(overallProgress(list)));
  // The author's own packs before the imported ones: the level just saved is the first card.
  const ownFirst = [...imported].sort((a, b) => Number(isOwnPack(b.id)) - Number(isOwnPack(a.id)));
  libraryGrid.replaceChildren(...ownFirst.map((world) => libraryCard(world)));
  librarySection.hidden = imported.length === 0;
  toolGrid.replaceChildren(...toolCards(imported.length));
  toolSection.hidden = false;
  arrowFocus(body, ".world-card, .tool-card", signal);
  const next =
    list.find((world) => world.unlocked && (world.requiredWon ?? world.won) < world.required) || list[0];
  body.querySelector(`[data-world="${CSS.escape(next?.id ?? "")}"]`)?.focus();
}

/** How far the player is through `world`'s required levels: `{wonRequired, share, done}`. */
function requiredProgress(world) {
  // `requiredWon` counts only required levels; older servers send `won` alone.
  const wonRequired = world.requiredWon ?? Math.min(world.won, world.required);
  const share = Math.min(1, wonRequired / Math.max(1, world.required));
  return { wonRequired, share, done: wonRequired >= world.required };
}

/** The bar and "2 / 5 required" of `world`. */
function progressView(world, { wonRequired, share }) {
  return h(
    "div",
    { class: "progress" },
    h(
      "div",
      {
        class: "bar",
        role: "progressbar",
        "aria-valuemin": "0",
        "aria-valuemax": String(world.required),
        "aria-valuenow": String(wonRequired),
        "aria-label": `${world.name} progress`,
      },
      h("span", { class: "bar-fill", style: { width: `${Math.round(share * 100)}%` } }),
    ),
    h(
      "span",
      { class: "progress-text" },
      h("strong", {}, String(wonRequired)),
      ` / ${world.required} required`,
    ),
  );
}

/** Where the pack came from: the author's own (saved with the editor) or imported. */
function originBadge(world) {
  if (!world.imported) return null;
  return isOwnPack(world.id)
    ? h("span", { class: "badge imported own" }, "Yours")
    : h("span", { class: "badge imported" }, "Imported");
}

function worldCard(world, index) {
  const reached = requiredProgress(world);
  const { done } = reached;
  const progress = progressView(world, reached);
  const body = [
    index === null
      ? h("span", { class: "world-number is-imported", "aria-hidden": "true" }, initial(world.name))
      : h("span", { class: "world-number", "aria-hidden": "true" }, String(index + 1)),
    h("span", { class: "world-name" }, world.name),
    h("span", { class: "world-description" }, world.description),
    h(
      "span",
      { class: "world-meta" },
      `${world.levels} level${world.levels === 1 ? "" : "s"} · ${world.won} solved`,
      originBadge(world),
      done ? h("span", { class: "badge done" }, "✓ Complete") : null,
    ),
    progress,
  ];
  if (!world.unlocked) {
    return h(
      "li",
      {},
      h(
        "div",
        {
          class: "card world-card is-locked",
          tabindex: "0",
          "aria-disabled": "true",
          // A locked card answers a click or Enter with what opens it.
          onclick: (event) => sayLocked(event.currentTarget, world.unlockedBy),
          onkeydown: (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              sayLocked(event.currentTarget, world.unlockedBy);
            }
          },
          dataset: { world: world.id },
        },
        body,
        h("span", { class: "lock-note" }, "🔒 ", world.unlockedBy || "Locked for now"),
      ),
    );
  }
  return h(
    "li",
    {},
    h(
      "a",
      {
        class: "card world-card",
        href: `#/world/${encodeURIComponent(world.id)}`,
        dataset: { world: world.id },
      },
      body,
    ),
  );
}

/**
 * One library pack as a compact card for the row atop world select: its
 * initial, name, origin, levels and progress on two lines (its description
 * shows on hover), so that several packs take one short row.
 */
function libraryCard(world) {
  const reached = requiredProgress(world);
  return h(
    "li",
    {},
    h(
      "a",
      {
        class: "card world-card library-card",
        href: `#/world/${encodeURIComponent(world.id)}`,
        title: world.description || null,
        dataset: { world: world.id },
      },
      h("span", { class: "world-number is-imported", "aria-hidden": "true" }, initial(world.name)),
      h(
        "span",
        { class: "library-card-head" },
        h("span", { class: "world-name" }, world.name),
        originBadge(world),
        reached.done ? h("span", { class: "badge done" }, "✓") : null,
      ),
      h(
        "span",
        { class: "world-meta" },
        `${world.levels} level${world.levels === 1 ? "" : "s"} · ${world.won} solved`,
      ),
      progressView(world, reached),
    ),
  );
}

function initial(name) {
  const first = [...(name || "?").trim()][0] || "?";
  return first.toUpperCase();
}

// The entries to the library (import, remove, export) and to the editor.
function toolCards(importedCount) {
  const card = (tool, href, glyph, name, text) =>
    h(
      "li",
      {},
      h(
        "a",
        { class: "card tool-card", href, dataset: { tool } },
        h("span", { class: "tool-glyph", "aria-hidden": "true" }, glyph),
        h("span", { class: "world-name" }, name),
        h("span", { class: "world-description" }, text),
      ),
    );
  return [
    card(
      "library",
      "#/library",
      "📦",
      "Library",
      importedCount
        ? "Import more packs, export or remove yours."
        : "Import a pack file: it joins your library atop this page, with your progress.",
    ),
    card(
      "editor",
      "#/edit",
      "✎",
      "Editor",
      "Make a level: paint it, test-play it, let the solver prove it, share it.",
    ),
  ];
}

function sayLocked(card, unlockedBy) {
  toast(`🔒 Locked: ${unlockedBy || "it opens later"}.`, { tone: "info", duration: 3500 });
  card.animate(
    [{ translate: "0" }, { translate: "-6px" }, { translate: "6px" }, { translate: "-3px" }, { translate: "0" }],
    { duration: 260, easing: "ease-out" },
  );
}

/** All the shipped worlds in one line: levels won, worlds complete, and a bar. */
function overallView({ won, levels, worldsComplete, worlds }) {
  return h(
    "p",
    { class: "overall-progress", dataset: { won: String(won), levels: String(levels) } },
    h("span", {}, h("strong", {}, `${won} of ${levels}`), " levels won"),
    h(
      "span",
      {
        class: "bar",
        role: "progressbar",
        "aria-label": "Levels won in all",
        "aria-valuemin": "0",
        "aria-valuemax": String(levels),
        "aria-valuenow": String(won),
      },
      h("span", { class: "bar-fill", style: { width: `${levels ? Math.round((won / levels) * 100) : 0}%` } }),
    ),
    h("span", {}, `${worldsComplete} of ${worlds} world${worlds === 1 ? "" : "s"} complete`),
  );
}
