// Whether the player plays by touch: words that name keys give way to touch
// words on such a screen (the chips beside the buttons are hidden by
// miau.css under the same media query).

/** The media query of a touch screen (a coarse pointer): miau.css uses the same one. */
export const TOUCH_QUERY = "(pointer: coarse)";

/** True on a touch screen (no `window`, as under Node: false). */
export function isTouchScreen() {
  return typeof window !== "undefined" && typeof window.matchMedia === "function"
    ? window.matchMedia(TOUCH_QUERY).matches
    : false;
}

/** `keys` on a keyboard screen, `touch` on a touch screen. */
export function keysOrTouch(keys, touch, touchScreen = isTouchScreen()) {
  return touchScreen ? touch : keys;
}
