// The static site keeps a player's progress in this browser (IndexedDB). This
// panel of the library scene saves it as a file and reads such a file back:
// the same file `miau progress export` writes and `miau progress import`
// reads for `miau play`'s database, so progress moves between browsers and
// to and from the server.

import { plural } from "./announce.js";
import { h } from "./dom.js";
import { siteRequest } from "./engine-port-pyodide.js";

const FILE_NAME = "miau-progress.json";

function saveFile(text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = h("a", { href: url, download: FILE_NAME, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The "Your progress" panel: Export and Import of the progress file. */
export function progressPanel() {
  const status = h("p", { class: "scene-summary progress-status", role: "status" });
  const say = (text, state) => {
    status.textContent = text;
    status.dataset.state = state;
  };
  const exportButton = h(
    "button",
    {
      class: "button",
      type: "button",
      dataset: { action: "export-progress" },
      onclick: async () => {
        const { status: code, body } = await siteRequest("GET", "/api/progress/export");
        if (code !== 200) return say(body?.error || "Your progress could not be read.", "error");
        saveFile(`${JSON.stringify(body, null, 1)}\n`);
        return say(`Saved ${FILE_NAME}.`, "exported");
      },
    },
    "Export progress",
  );
  const fileInput = h("input", {
    class: "visually-hidden",
    id: "progress-file",
    type: "file",
    accept: ".json,application/json",
  });
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files?.[0];
    fileInput.value = "";
    if (!file) return;
    let document;
    try {
      document = JSON.parse(await file.text());
    } catch {
      say("That file is not a Miau progress file (it is not JSON).", "error");
      return;
    }
    const { status: code, body } = await siteRequest("POST", "/api/progress/import", document);
    if (code !== 200) {
      say(body?.error || "That file could not be imported.", "error");
      return;
    }
    say(
      `Imported ${plural(body.progress, "level")} won, ${plural(body.games, "game")} in progress and ` +
        `${plural(body.library, "library pack")}.`,
      "imported",
    );
  });
  const importLabel = h(
    "label",
    { class: "button", for: "progress-file", tabindex: "0", role: "button" },
    "Import progress…",
  );
  return h(
    "section",
    { class: "panel progress-panel", "aria-labelledby": "progress-heading" },
    h("h2", { id: "progress-heading" }, "Your progress"),
    h(
      "p",
      { class: "scene-summary" },
      "This site keeps your progress in this browser. Save it as a file to move it to another browser or to miau play.",
    ),
    h("div", { class: "import-actions" }, exportButton, importLabel, fileInput),
    status,
  );
}
