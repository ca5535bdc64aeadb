// Save and share: put the draft's level into a pack of the player's library
// (an existing one, or a new one by id and name), link to that pack's
// export, and ask the server for the level's share link (the page cannot
// deflate and validate a pack itself). A save never replaces a level
// without asking, and the last few saves can be undone: each one keeps the
// pack as it was before (or that there was none).

import { confirmDialog } from "../dialog.js";
import { h } from "../dom.js";
import { siteRequest } from "../engine-port-pyodide.js";
import { isStaticSite } from "../site.js";
import { isPackId } from "./draft.js";

const TARGET_KEY = "miau.editor.target";
const NEW_PACK = "__new__";
/** The new pack a first save suggests, filled in as real values. */
export const DEFAULT_PACK = Object.freeze({ id: "my-levels", name: "My levels" });
/** How many saves "Undo save" can take back, newest first. */
export const SAVE_UNDO_LIMIT = 5;

async function requestJson(method, path, body = undefined) {
  if (isStaticSite) {
    // The static site answers in the page (engine-port-pyodide.js).
    const answer = await siteRequest(method, path, body);
    return { ok: answer.status < 400, status: answer.status, body: answer.body || {} };
  }
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, status: 0, body: { error: "The game server cannot be reached." } };
  }
  let parsed = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  return { ok: response.ok, status: response.status, body: parsed || {} };
}

function problemList(problems, onPlace) {
  if (!problems?.length) return null;
  return h(
    "ol",
    { class: "problem-list" },
    problems.map((problem) =>
      h(
        "li",
        { class: "problem", dataset: { severity: problem.severity || "error" } },
        h("span", { class: "severity" }, problem.severity === "warning" ? "warning" : "error"),
        problem.place
          ? h(
              "button",
              {
                class: "place-link",
                type: "button",
                dataset: { place: problem.place },
                onclick: () => onPlace(problem.place),
              },
              problem.place,
            )
          : null,
        h("span", { class: "problem-message" }, problem.message),
      ),
    ),
  );
}

function rememberTarget(target) {
  try {
    localStorage.setItem(TARGET_KEY, JSON.stringify(target));
  } catch {
    // Only a convenience: the next visit asks again.
  }
}

function rememberedTarget() {
  try {
    return JSON.parse(localStorage.getItem(TARGET_KEY) || "null");
  } catch {
    return null;
  }
}

/** The level `levelId` of a pack file's text (its title), or null when the text has none. */
export function existingLevel(packText, levelId) {
  if (!packText) return null;
  try {
    const levels = JSON.parse(packText).levels;
    return (Array.isArray(levels) && levels.find((level) => level?.id === levelId)) || null;
  } catch {
    return null;
  }
}

/**
 * The panel drawn into `root`. `pack(manifest)` gives the one-level pack to
 * send (with the manifest fields given), `levelId()` the level's id,
 * `onPlace(place)` shows a problem's place, `onSaved(packId, levelId)` runs
 * after each save.
 */
export class SavePanel {
  constructor(root, { pack, levelId, onPlace, signal = undefined, onSaved = () => {} }) {
    this.root = root;
    this.pack = pack;
    this.levelId = levelId;
    this.onSaved = onSaved;
    this.onPlace = onPlace;
    this.signal = signal;
    this.library = [];
    /** The pack the author picked in this visit (null: the one saved into last time). */
    this.choice = null;
    /** Saves that can be undone, newest last: {packId, level, before} (before: the pack's text, or null). */
    this.undoable = [];
    this.select = h("select", { class: "input", name: "library-pack", dataset: { field: "library-pack" } });
    this.newId = h("input", {
      class: "input",
      name: "new-pack-id",
      maxlength: "64",
      autocomplete: "off",
      spellcheck: "false",
    });
    this.newName = h("input", {
      class: "input",
      name: "new-pack-name",
      maxlength: "80",
      autocomplete: "off",
    });
    this.newFields = h(
      "div",
      { class: "field-row new-pack" },
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Pack id"), this.newId),
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Pack name"), this.newName),
    );
    this.saveStatus = h("div", { class: "save-status", role: "status" });
    this.shareStatus = h("div", { class: "share-status", role: "status" });
    this.select.addEventListener("change", () => {
      this.choice = this.select.value;
      this.syncNewFields();
    });
    // Real values, ready to save with (an author may change them): never grey examples.
    const remembered = rememberedTarget();
    this.newId.value = remembered?.id || DEFAULT_PACK.id;
    this.newName.value = remembered?.name || DEFAULT_PACK.name;
    root.append(
      h("h3", {}, "Save to your library"),
      h("label", { class: "field" }, h("span", { class: "form-label" }, "Library pack"), this.select),
      this.newFields,
      h(
        "div",
        { class: "studio-actions" },
        h(
          "button",
          {
            class: "button primary",
            type: "button",
            dataset: { action: "save-level" },
            onclick: () => this.save(),
          },
          "Save level",
        ),
      ),
      this.saveStatus,
      h("h3", {}, "Share as a link"),
      h(
        "p",
        { class: "form-note" },
        "The link carries the level itself; anyone with a running Miau can play it.",
      ),
      h(
        "div",
        { class: "studio-actions" },
        h(
          "button",
          { class: "button", type: "button", dataset: { action: "share" }, onclick: () => this.share() },
          "Make share link",
        ),
      ),
      this.shareStatus,
    );
    this.fillSelect();
  }

  /** Reloads the player's library packs into the select. */
  async refresh() {
    const reply = await requestJson("GET", "/api/library");
    this.library = reply.ok && Array.isArray(reply.body.packs) ? reply.body.packs : [];
    this.fillSelect();
  }

  fillSelect() {
    const previous = this.choice ?? rememberedTarget()?.id ?? "";
    this.select.replaceChildren(
      ...this.library.map((pack) => h("option", { value: pack.id }, `${pack.name} (${pack.id})`)),
      h("option", { value: NEW_PACK }, "New pack…"),
    );
    this.select.value = this.library.some((pack) => pack.id === previous)
      ? previous
      : this.library[0]?.id || NEW_PACK;
    this.syncNewFields();
  }

  syncNewFields() {
    this.newFields.hidden = this.select.value !== NEW_PACK;
  }

  target() {
    if (this.select.value !== NEW_PACK) {
      const existing = this.library.find((pack) => pack.id === this.select.value);
      return { id: existing.id, name: existing.name, version: existing.version || "1.0.0" };
    }
    const id = this.newId.value.trim();
    const name = this.newName.value.trim() || id;
    return { id, name, version: "1.0.0" };
  }

  /** The pack's file as the library holds it now, or null when it has none (or it cannot be read). */
  async storedPackText(packId) {
    if (!this.library.some((pack) => pack.id === packId)) return null;
    const path = `/api/library/${encodeURIComponent(packId)}/export`;
    try {
      if (isStaticSite) {
        // The static site keeps the library in the page; its answer carries the file's text.
        const answer = await siteRequest("GET", path);
        return answer.status === 200 ? answer.body.text : null;
      }
      const response = await fetch(path);
      return response.ok ? await response.text() : null;
    } catch {
      return null;
    }
  }

  /** Shows the save status: one line, then any further nodes. */
  status(state, line, ...more) {
    this.saveStatus.dataset.state = state;
    // Only real nodes: replaceChildren would print a null as the text "null".
    const parts = more.filter((part) => part !== null && part !== undefined);
    this.saveStatus.replaceChildren(h("p", {}, line), ...parts);
  }

  /** Saves the level into the chosen library pack; asks first when that would replace a level. */
  async save() {
    const target = this.target();
    if (!isPackId(target.id)) {
      this.status(
        "error",
        "A pack id is 2 to 64 characters: a lowercase letter, then lowercase letters, digits, ., _ or -.",
      );
      this.newId.focus();
      return;
    }
    const level = this.levelId();
    const before = await this.storedPackText(target.id);
    const replaced = existingLevel(before, level);
    if (replaced) {
      const yes = await confirmDialog({
        title: `Replace “${replaced.title || level}”?`,
        text: `${target.name} already has a level with the id “${level}”. Saving replaces it with this one.`,
        details: "To keep both, cancel and give this level another id (Level tab).",
        confirm: "Replace",
        tone: "danger",
        signal: this.signal,
      });
      if (!yes) {
        this.status("cancelled", `Not saved: ${target.name} still has its own “${level}”.`);
        return;
      }
    }
    this.status("saving", "Saving…");
    const reply = await requestJson(
      "PUT",
      `/api/library/${encodeURIComponent(target.id)}/levels/${encodeURIComponent(level)}`,
      { pack: this.pack({ id: target.id, name: target.name, version: target.version }) },
    );
    if (!reply.ok) {
      this.status(
        "error",
        reply.body.error || `The server answered ${reply.status}.`,
        problemList(reply.body.problems, this.onPlace),
      );
      return;
    }
    rememberTarget({ id: target.id, name: target.name });
    this.onSaved(target.id, level);
    this.choice = target.id;
    this.undoable.push({ packId: target.id, level, before });
    if (this.undoable.length > SAVE_UNDO_LIMIT) this.undoable.shift();
    const summary = reply.body.pack || target;
    const count = `${summary.levels ?? "?"} level${summary.levels === 1 ? "" : "s"}`;
    this.status(
      "saved",
      `${replaced ? "Replaced" : "Saved"} “${level}” in ${summary.name} (${count}).`,
      this.savedActions(summary),
    );
    this.saveStatus.dataset.pack = summary.id;
    await this.refresh();
  }

  savedActions(summary) {
    return h(
      "div",
      { class: "studio-actions" },
      this.undoButton(),
      h(
        "a",
        {
          class: "button small",
          href: `/api/library/${encodeURIComponent(summary.id)}/export`,
          download: `${summary.id}.json`,
          dataset: { action: "export" },
        },
        "Export pack (JSON)",
      ),
      h(
        "a",
        { class: "button ghost small", href: `#/world/${encodeURIComponent(summary.id)}` },
        "Open in world select",
      ),
    );
  }

  undoButton() {
    if (!this.undoable.length) return null;
    return h(
      "button",
      { class: "button small", type: "button", dataset: { action: "undo-save" }, onclick: () => this.undoSave() },
      "Undo save",
    );
  }

  /** Takes back the newest save: the pack goes back to what it was (or away, if the save made it). */
  async undoSave() {
    const last = this.undoable.pop();
    if (!last) return;
    this.status("saving", "Undoing the save…");
    const reply =
      last.before === null
        ? await requestJson("DELETE", `/api/library/${encodeURIComponent(last.packId)}`)
        : await requestJson("POST", "/api/library", { text: last.before, replace: true });
    if (!reply.ok) {
      this.undoable.push(last);
      this.status("error", reply.body.error || `The server answered ${reply.status}.`, this.undoButton());
      return;
    }
    await this.refresh();
    this.status(
      "undone",
      last.before === null
        ? `Save undone: the pack ${last.packId} is gone again.`
        : `Save undone: ${last.packId} is back as it was before “${last.level}” was saved.`,
      h("div", { class: "studio-actions" }, this.undoButton()),
    );
  }

  /** Asks the server for the level's share link and shows it with a Copy button. */
  async share() {
    this.shareStatus.dataset.state = "working";
    this.shareStatus.replaceChildren(h("p", {}, "Encoding…"));
    const reply = await requestJson("POST", "/api/shared/encode", { pack: this.pack({}) });
    if (!reply.ok) {
      this.shareStatus.dataset.state = "error";
      this.shareStatus.replaceChildren(
        ...[
          h("p", {}, reply.body.error || `The server answered ${reply.status}.`),
          problemList(reply.body.problems, this.onPlace),
        ].filter(Boolean),
      );
      return;
    }
    const link = reply.body.link;
    const output = h("input", {
      class: "input share-link",
      readonly: true,
      name: "share-link",
      "aria-label": "Share link",
      value: link,
    });
    const copy = h(
      "button",
      {
        class: "button small",
        type: "button",
        dataset: { action: "copy-link" },
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            copy.textContent = "Copied";
          } catch {
            output.select();
            copy.textContent = "Press Ctrl+C";
          }
        },
      },
      "Copy",
    );
    this.shareStatus.dataset.state = "ready";
    this.shareStatus.replaceChildren(
      h("div", { class: "share-row" }, output, copy),
      h(
        "p",
        { class: "form-note" },
        `${link.length} characters. `,
        h("a", { href: link, target: "_blank", rel: "noopener" }, "Open it"),
      ),
    );
    output.addEventListener("focus", () => output.select());
  }
}
