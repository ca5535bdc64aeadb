// The sound control of the play bar: a mute switch (key M) and a volume
// slider, both remembered per browser by the SoundBoard. The page's root
// element carries the board's status (`data-sound`: waiting, on or muted)
// and how many effects it played (`data-sounds-played`), for the tests.

import { h } from "./dom.js";
import { keysOrTouch } from "./touch.js";

/** The control for `board`; `signal` ends its listeners with the scene. */
export function soundControl(board, signal) {
  const button = h("button", {
    class: "button action sound-toggle",
    type: "button",
    dataset: { action: "sound" },
    "aria-pressed": "false",
    onclick: () => board.setMuted(!board.muted),
  });
  const slider = h("input", {
    class: "sound-volume",
    type: "range",
    min: "0",
    max: "100",
    step: "5",
    "aria-label": "Volume",
    dataset: { field: "volume" },
  });
  slider.addEventListener("input", () => {
    board.setVolume(Number(slider.value) / 100);
    if (board.muted && board.volume > 0) board.setMuted(false);
  });
  const stop = board.subscribe(() => {
    const silent = board.muted || board.volume === 0;
    button.textContent = silent ? "🔇" : "🔊";
    // A touch screen has no M key to name (touch.js).
    const words = silent ? "Sound off" : "Sound on";
    button.title = keysOrTouch(`${words} (M)`, words);
    button.setAttribute("aria-label", silent ? "Sound off" : "Sound on");
    button.setAttribute("aria-pressed", String(!silent));
    slider.value = String(Math.round(board.volume * 100));
    document.documentElement.dataset.sound = board.status;
    document.documentElement.dataset.soundsPlayed = String(board.played);
  });
  window.addEventListener(
    "keydown",
    (event) => {
      if (event.key.toLowerCase() !== "m" || event.ctrlKey || event.metaKey || event.altKey) return;
      const typing = event.target instanceof HTMLElement && event.target.closest("input, textarea, select");
      if (typing) return;
      event.preventDefault();
      board.setMuted(!board.muted);
    },
    { signal },
  );
  signal.addEventListener("abort", stop);
  return h("div", { class: "sound-control" }, button, slider);
}
