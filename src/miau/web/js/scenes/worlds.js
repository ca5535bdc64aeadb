// World select: one card per world with its progress.

import * as api from "../api.js";
import { arrowFocus, h, keyLabel } from "../dom.js";
import { errorCard, loadingCard, onEscape } from "./common.js";

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
  root.append(
    h("header", { class: "scene-head" }, back, h("h1", {}, "Worlds")),
    h("main", { class: "scene-body" }, grid),
  );
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
  grid.replaceChildren(...list.map((world, index) => worldCard(world, index)));
  arrowFocus(grid, ".world-card", signal);
  const next =
    list.find((world) => world.unlocked && (world.requiredWon ?? world.won) < world.required) || list[0];
  grid.querySelector(`[data-world="${CSS.escape(next?.id ?? "")}"]`)?.focus();
}

function worldCard(world, index) {
  // `requiredWon` counts only required levels; older servers send `won` alone.
  const wonRequired = world.requiredWon ?? Math.min(world.won, world.required);
  const share = Math.min(1, wonRequired / Math.max(1, world.required));
  const done = wonRequired >= world.required;
  const progress = h(
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
  const body = [
    h("span", { class: "world-number", "aria-hidden": "true" }, String(index + 1)),
    h("span", { class: "world-name" }, world.name),
    h("span", { class: "world-description" }, world.description),
    h(
      "span",
      { class: "world-meta" },
      `${world.levels} levels · ${world.won} solved`,
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
