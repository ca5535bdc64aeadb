// Input: keys and the on-screen pad (both with hold-to-repeat at the same
// rate), swipes and other on-screen buttons, turned into intents. Intents are plain objects:
//   {intent: "step", direction}, {intent: "wait"}, {intent: "undo"},
//   {intent: "reset"}, and the scene-level {intent: "back"}.

/**
 * First repeat of a held key, then the steady rate (about 11 moves a second).
 *
 * A key repeats only once the system says it is held: its own auto-repeat
 * (a keydown with `repeat`) comes only while the key is physically down,
 * after the delay the player set for every program. The page cannot tell a
 * hold from a short press by the clock alone: a press's key-up may reach a
 * busy page (a level opening, the next level after a win) later than
 * REPEAT_DELAY_MS, and one press would move twice. So the first repeat
 * comes after both REPEAT_DELAY_MS and the system's first repeat; the rate
 * after it is the page's own, the same everywhere. A pad button held under
 * a finger needs no such word: its pointer is down.
 */
export const REPEAT_DELAY_MS = 180;
export const REPEAT_INTERVAL_MS = 90;

/**
 * The localStorage key that turns hold-to-repeat off: set to "off", a held
 * key or pad button moves once, however long it is held. The browser tests
 * set it: the page can only tell a tap from a hold by when the key-up
 * arrives, and on a loaded machine a test's key-up can come later than
 * REPEAT_DELAY_MS, so a single press would move twice.
 */
export const KEY_REPEAT_SETTING = "miau.keyRepeat";

/** Whether this browser wants hold-to-repeat (the default): KEY_REPEAT_SETTING is not "off". */
export function keyRepeatWanted(storage = globalThis.localStorage) {
  try {
    return storage?.getItem(KEY_REPEAT_SETTING) !== "off";
  } catch {
    return true; // storage refused (a private window): the default
  }
}

const SWIPE_MIN_PX = 24;

const KEY_INTENTS = {
  arrowup: { intent: "step", direction: "up" },
  arrowdown: { intent: "step", direction: "down" },
  arrowleft: { intent: "step", direction: "left" },
  arrowright: { intent: "step", direction: "right" },
  w: { intent: "step", direction: "up" },
  s: { intent: "step", direction: "down" },
  a: { intent: "step", direction: "left" },
  d: { intent: "step", direction: "right" },
  z: { intent: "undo" },
  backspace: { intent: "undo" },
  r: { intent: "reset" },
  " ": { intent: "wait" },
  escape: { intent: "back" },
};

// Keys that repeat while held: moving and undoing, like the genre does.
const REPEATING = new Set(["step", "undo"]);

function keyName(event) {
  return event.key.toLowerCase();
}

/**
 * Listens for the play controls and calls `onIntent(intent, {repeat})` for
 * each. `repeat` is true for the automatic repeats of a held key, which the
 * caller may skip when it is busy (a first press is never skipped).
 * `swipeSurface` receives swipes; any element under `buttonRoot` with
 * `data-intent` (and `data-direction`) acts as a button. `repeat` false:
 * held keys and pad buttons never repeat (default: keyRepeatWanted()).
 * Returns `{destroy, setEnabled}`.
 */
export function createInput({ onIntent, swipeSurface = null, buttonRoot = null, repeat = keyRepeatWanted() }) {
  let enabled = true;
  const held = []; // keys (and "pad" for a pad button) held down, most recent last
  const heldIntents = new Map(); // what each held source repeats
  const sure = new Set(); // held sources known to be held: the system repeated the key, or a pad pointer is down
  let padPointer = null; // the pointer holding a pad button
  let skipClick = false; // the click that ends a pad press was already a move
  let delayTimer = null;
  let repeatTimer = null;
  let due = false; // REPEAT_DELAY_MS has passed since the active source's press (or take-over)

  function stopRepeating() {
    clearTimeout(delayTimer);
    clearInterval(repeatTimer);
    delayTimer = null;
    repeatTimer = null;
    due = false;
  }

  function startRepeating(source) {
    stopRepeating();
    if (!repeat) return;
    delayTimer = setTimeout(() => {
      delayTimer = null;
      due = true;
      repeatIfHeld(source);
    }, REPEAT_DELAY_MS);
  }

  /** Starts the repeats of `source` once the delay has passed and it is known to be held. */
  function repeatIfHeld(source) {
    if (!due || repeatTimer !== null || held.at(-1) !== source || !sure.has(source)) return;
    const again = () => {
      if (enabled && held.at(-1) === source) onIntent(heldIntents.get(source), { repeat: true });
    };
    repeatTimer = setInterval(again, REPEAT_INTERVAL_MS);
    again();
  }

  function release(key) {
    const index = held.indexOf(key);
    if (index === -1) return;
    const wasActive = index === held.length - 1;
    held.splice(index, 1);
    heldIntents.delete(key);
    sure.delete(key);
    if (!wasActive) return;
    // Another key still held takes over after the usual delay, without a
    // press of its own: the player did not press it again. (Only one the
    // system had already repeated repeats: the system stops repeating it.)
    if (held.length) startRepeating(held.at(-1));
    else stopRepeating();
  }

  function onKeyDown(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = keyName(event);
    const intent = KEY_INTENTS[key];
    if (!intent) return;
    if (!enabled) return;
    event.preventDefault();
    if (event.repeat) {
      // The system's repeat moves nothing itself: it says the key is really down.
      if (held.includes(key)) {
        sure.add(key);
        repeatIfHeld(key);
      }
      return;
    }
    if (held.includes(key)) return;
    onIntent(intent, { repeat: false });
    if (REPEATING.has(intent.intent)) hold(key, intent);
  }

  function hold(source, intent, { known = false } = {}) {
    held.push(source);
    heldIntents.set(source, intent);
    if (known) sure.add(source);
    startRepeating(source);
  }

  function onKeyUp(event) {
    release(keyName(event));
  }

  function releaseAll() {
    held.length = 0;
    heldIntents.clear();
    sure.clear();
    padPointer = null;
    stopRepeating();
  }

  let swipeStart = null;
  function onPointerDown(event) {
    if (event.pointerType === "mouse" || !event.isPrimary) return;
    swipeStart = { id: event.pointerId, x: event.clientX, y: event.clientY };
  }
  function onPointerUp(event) {
    if (!swipeStart || event.pointerId !== swipeStart.id) return;
    const dx = event.clientX - swipeStart.x;
    const dy = event.clientY - swipeStart.y;
    swipeStart = null;
    if (!enabled || Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_MIN_PX) return;
    const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : dy > 0 ? "down" : "up";
    onIntent({ intent: "step", direction }, { repeat: false });
  }
  function onPointerCancel() {
    swipeStart = null;
  }

  function buttonOf(event) {
    const button = typeof event.target?.closest === "function" && event.target.closest("[data-intent]");
    return button && buttonRoot.contains(button) ? button : null;
  }

  function intentOfButton(button) {
    const intent = { intent: button.dataset.intent };
    if (button.dataset.direction) intent.direction = button.dataset.direction;
    return intent;
  }

  // A pad button held down repeats like a held key: the move on press, the
  // first repeat after REPEAT_DELAY_MS, then one every REPEAT_INTERVAL_MS.
  function onButtonPointerDown(event) {
    const button = buttonOf(event);
    if (!button || !enabled || !button.dataset.pad || event.button > 0) return;
    const intent = intentOfButton(button);
    if (!REPEATING.has(intent.intent)) return;
    if (padPointer !== null) release("pad");
    padPointer = event.pointerId;
    skipClick = true;
    onIntent(intent, { repeat: false });
    hold("pad", intent, { known: true });
  }

  function onButtonPointerUp(event) {
    if (padPointer === null || event.pointerId !== padPointer) return;
    padPointer = null;
    release("pad");
  }

  function onButtonClick(event) {
    const button = buttonOf(event);
    if (skipClick && button?.dataset.pad) {
      skipClick = false;
      return;
    }
    skipClick = false;
    if (!button || !enabled) return;
    onIntent(intentOfButton(button), { repeat: false });
  }

  window.addEventListener("keydown", onKeyDown);
  window.addEventListener("keyup", onKeyUp);
  window.addEventListener("blur", releaseAll);
  if (swipeSurface) {
    swipeSurface.addEventListener("pointerdown", onPointerDown);
    swipeSurface.addEventListener("pointerup", onPointerUp);
    swipeSurface.addEventListener("pointercancel", onPointerCancel);
  }
  const padEnds = ["pointerup", "pointercancel", "pointerleave"];
  if (buttonRoot) {
    buttonRoot.addEventListener("click", onButtonClick);
    buttonRoot.addEventListener("pointerdown", onButtonPointerDown);
    for (const name of padEnds) buttonRoot.addEventListener(name, onButtonPointerUp, true);
  }

  return {
    /** Turns the controls off (an overlay owns the keys) or on again. */
    setEnabled(value) {
      enabled = value;
      if (!value) releaseAll();
    },
    /** Removes every listener. */
    destroy() {
      releaseAll();
      window.removeEventListener("keydown", onKeyDown);
      window.removeEventListener("keyup", onKeyUp);
      window.removeEventListener("blur", releaseAll);
      if (swipeSurface) {
        swipeSurface.removeEventListener("pointerdown", onPointerDown);
        swipeSurface.removeEventListener("pointerup", onPointerUp);
        swipeSurface.removeEventListener("pointercancel", onPointerCancel);
      }
      if (buttonRoot) {
        buttonRoot.removeEventListener("click", onButtonClick);
        buttonRoot.removeEventListener("pointerdown", onButtonPointerDown);
        for (const name of padEnds) buttonRoot.removeEventListener(name, onButtonPointerUp, true);
      }
    },
  };
}
