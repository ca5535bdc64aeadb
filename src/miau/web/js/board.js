// The board actuator: draws a settled state and animates an event toward it.
// The state is always what stays on screen; the event only says how to get
// there (slides, bumps, destruction cues, rule flashes).

import { dressWordTile, ruleText } from "./words.js";
import { tileForWord, wordFit } from "./word-fit.js";

/** How many colours TICK paths take (miau.css, `data-owner`): one per TICK thing, in turn. */
const PATH_COLOURS = 4;

/** How long one slide of one cell takes. */
export const SLIDE_MS = 120;
const BUMP_MS = 140;
const MIN_TILE_PX = 12;
const MAX_TILE_PX = 96;
/** The smallest word-tile text the board draws (CSS px): a denser board pans instead. */
export const MIN_WORD_TEXT_PX = 11;
/** How much smaller a member of a stack is drawn (its text too, so the tile size allows for it). */
const STACK_SCALE = 0.74;

const advances = new Map(); // word -> its width in em, as the tile font draws it
let measuring = null; // a canvas context set to the tile font

/**
 * A word's width in em in the word tiles' font (miau.css `--font-tile`, weight 800,
 * letter-spacing -0.02em), measured once per word.
 */
export function wordAdvance(text) {
  const known = advances.get(text);
  if (known !== undefined) return known;
  if (!measuring) {
    measuring = document.createElement("canvas").getContext("2d");
    const family = getComputedStyle(document.documentElement).getPropertyValue("--font-tile").trim();
    measuring.font = `800 100px ${family || "sans-serif"}`;
  }
  const letters = [...text].length;
  // No canvas (a stripped-down browser): a generous guess for bold capitals.
  const width = measuring ? measuring.measureText(text).width / 100 : letters * 0.78;
  const advance = width - 0.02 * letters;
  advances.set(text, advance);
  return advance;
}

/** The smallest tile (whole px) on which every word of `words` fits on one line at `minText` px or more. */
export function tileForText(words, minText = MIN_WORD_TEXT_PX) {
  let tile = 0;
  for (const word of words) tile = Math.max(tile, tileForWord(wordAdvance(word), minText));
  return tile;
}

/** The words of `entities` that share their cell with another entity (drawn smaller, in a stack). */
export function stackedWords(entities) {
  const counts = new Map();
  for (const entity of entities) {
    const key = `${entity.x},${entity.y}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return entities
    .filter((entity) => entity.kind === "word" && counts.get(`${entity.x},${entity.y}`) > 1)
    .map((entity) => entity.text);
}

const reducedMotionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");

/** True when the player asked for no motion. */
export function prefersReducedMotion() {
  return reducedMotionQuery.matches;
}

function normaliseGlyph(entry) {
  if (!entry) return null;
  if (typeof entry === "string") return { glyph: entry, faces: null };
  return { glyph: entry.glyph, faces: entry.faces ?? null };
}

// Drawing order inside a cell, bottom first: things, then words, then YOU.
function layerOf(entity, youNouns) {
  if (entity.kind === "word") return 1;
  return youNouns.has(entity.noun) ? 2 : 0;
}

/**
 * A board drawn inside `area` (which sets the space it may take). Entities
 * are absolutely positioned elements with `data-id`, `data-kind`,
 * `data-noun` or `data-text`, `data-x`, `data-y`, `data-facing`, and
 * `data-lit` on words. With `fitsWhole` the whole board always fits its
 * area (down to MIN_TILE_PX), its words as small as that makes them, where
 * a player's board would pan to keep them legible: an author test-playing
 * a large level sees all of it at once.
 */
export class Board {
  constructor(area, { vocabulary, palette, fitsWhole = false }) {
    this.area = area;
    this.fitsWhole = fitsWhole;
    this.vocabulary = vocabulary;
    this.palette = {};
    for (const [noun, entry] of Object.entries(palette || {})) {
      this.palette[noun] = normaliseGlyph(entry);
    }
    this.element = document.createElement("div");
    this.element.className = "board";
    this.element.setAttribute("role", "img");
    // The coming beats of TICK things (state.ticks), drawn over the cells they reach.
    this.pathLayer = document.createElement("div");
    this.pathLayer.className = "tick-paths";
    this.pathLayer.setAttribute("aria-hidden", "true");
    this.element.append(this.pathLayer);
    this.area.append(this.element);
    this.tile = 32;
    this.state = null;
    this.elements = new Map(); // id -> {root, face, glyph}
    this.placements = new Map(); // id -> {x, y, offset, scale}
    this.lookingLeft = new Map(); // id -> last horizontal facing was left
    this.dying = new Set();
    this.highlighted = new Set();
    // The rules the label lists when the state's own do not say them (showRulesInForce).
    this.labelRules = null;
    this.resizeObserver = new ResizeObserver(() => this.fit());
    this.resizeObserver.observe(this.area);
  }

  /** Stops observing the page; the element is left for the scene to remove. */
  destroy() {
    this.resizeObserver.disconnect();
    this.finishAnimations();
  }

  /**
   * Picks the whole-pixel tile size that makes the board fit its area, but
   * never one whose word text would be under MIN_WORD_TEXT_PX: every word
   * stays on one line (word-fit.js: a long word shrinks, then is drawn
   * narrower), and a board too dense for that in its area is drawn larger
   * and pans (the area scrolls to keep YOU in view). A board that
   * `fitsWhole` takes the fitting size, legible words or not.
   */
  fit() {
    if (!this.state) return;
    const style = getComputedStyle(this.area);
    const width = this.area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = this.area.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const fitting = Math.floor(Math.min(width / this.state.width, height / this.state.height));
    const words = new Set(
      this.state.entities.filter((entity) => entity.kind === "word").map((entity) => entity.text),
    );
    // A word in a stack is drawn at STACK_SCALE: its text must still reach MIN_WORD_TEXT_PX.
    const stacked = new Set(stackedWords(this.state.entities));
    this.stackedTexts = stacked;
    const fitted = Math.max(MIN_TILE_PX, Math.min(MAX_TILE_PX, fitting || MIN_TILE_PX));
    const readable = this.fitsWhole
      ? 0
      : Math.max(tileForText(words), tileForText(stacked, MIN_WORD_TEXT_PX / STACK_SCALE));
    const tile = Math.min(MAX_TILE_PX, Math.max(fitted, readable));
    if (tile === this.tile && this.element.style.width) return;
    this.finishAnimations();
    this.tile = tile;
    for (const parts of this.elements.values()) this.fitWord(parts.root);
    this.element.style.setProperty("--tile", `${tile}px`);
    this.element.style.width = `${tile * this.state.width}px`;
    this.element.style.height = `${tile * this.state.height}px`;
    this.draw(this.state);
  }

  /** Sizes a word tile's text for this tile size: one line, as large as fits (word-fit.js). */
  fitWord(root) {
    if (root.dataset.kind !== "word") return;
    const text = root.dataset.text;
    const minText = this.stackedTexts?.has(text) ? MIN_WORD_TEXT_PX / STACK_SCALE : MIN_WORD_TEXT_PX;
    const { size, squeeze } = wordFit(wordAdvance(text), this.tile, minText);
    // Rounded up: a stacked word's text, drawn at STACK_SCALE, must not fall a hair under minText.
    root.style.setProperty("--word-size", `${(Math.ceil(size * 100) / 100).toFixed(2)}px`);
    root.style.setProperty("--squeeze", squeeze.toFixed(3));
    root.dataset.squeezed = String(squeeze < 1);
  }

  /** Scrolls a board larger than its area so that the first YOU thing stays two cells from the edge. */
  keepYouInView() {
    const area = this.area;
    if (area.scrollWidth <= area.clientWidth + 1 && area.scrollHeight <= area.clientHeight + 1) return;
    const you = this.element.querySelector('.entity[data-you="true"]');
    if (!you) return;
    const margin = this.tile * 2;
    const left = this.element.offsetLeft + Number(you.dataset.x) * this.tile;
    const top = this.element.offsetTop + Number(you.dataset.y) * this.tile;
    if (left - margin < area.scrollLeft) area.scrollLeft = left - margin;
    else if (left + this.tile + margin > area.scrollLeft + area.clientWidth)
      area.scrollLeft = left + this.tile + margin - area.clientWidth;
    if (top - margin < area.scrollTop) area.scrollTop = top - margin;
    else if (top + this.tile + margin > area.scrollTop + area.clientHeight)
      area.scrollTop = top + this.tile + margin - area.clientHeight;
  }

  /** Draws `state` as it is, at once. */
  draw(state) {
    const firstDraw = !this.state || this.state.width !== state.width || this.state.height !== state.height;
    this.state = state;
    if (firstDraw) {
      this.element.style.width = "";
      this.fit();
      return;
    }
    const lit = new Set();
    for (const sentence of state.sentences || []) for (const id of sentence.ids) lit.add(id);
    const youNouns = new Set(
      (state.rules || []).filter((rule) => rule.predicate === "YOU").map((rule) => rule.subject),
    );
    const facingMatters = new Set(state.facingMatters || []);
    const ticks = new Map((state.ticks || []).map((tick) => [tick.id, tick]));
    const tickOrder = new Map((state.ticks || []).map((tick, order) => [tick.id, order % PATH_COLOURS]));
    const cells = new Map();
    for (const entity of state.entities) {
      const key = entity.y * state.width + entity.x;
      if (!cells.has(key)) cells.set(key, []);
      cells.get(key).push(entity);
    }
    const present = new Set();
    for (const stack of cells.values()) {
      stack.sort((a, b) => layerOf(a, youNouns) - layerOf(b, youNouns) || a.id - b.id);
      const placements = stackPlacements(stack, this.tile);
      stack.forEach((entity, index) => {
        present.add(entity.id);
        const parts = this.elementFor(entity);
        this.dress(parts, entity, lit, youNouns);
        markFacing(parts, facingMatters.has(entity.id) ? entity.facing : null);
        markBeat(parts, ticks.get(entity.id), tickOrder.get(entity.id));
        const placement = placements[index];
        this.placements.set(entity.id, placement);
        parts.root.style.transform = this.transformOf(placement);
        // A thing drawn small on a word's corner goes over the word, so neither hides the other.
        const layer = placement.corner ? 3 : layerOf(entity, youNouns);
        parts.root.style.zIndex = String(10 + layer * 10 + index);
        if (index === stack.length - 1 && stack.length > 2) parts.root.dataset.stack = String(stack.length);
        else delete parts.root.dataset.stack;
      });
    }
    this.drawTickPaths(state.ticks || [], state.entities);
    for (const [id, parts] of this.elements) {
      if (!present.has(id)) {
        parts.root.remove();
        this.elements.delete(id);
        this.placements.delete(id);
      }
    }
    this.element.dataset.moveCount = String(state.moveCount);
    this.element.dataset.won = String(Boolean(state.won));
    this.describe(state);
    this.keepYouInView();
  }

  /**
   * Lists `rules` (engine rules, as a state's `rules`) in the board's label
   * from now on, instead of the drawn state's own. The editor draws a draft
   * that has no rules of its own (the engine reports them a moment after an
   * edit), but the label must still say which are in force; the rules are
   * not drawn (no YOU glow), so the draft's stacking order stays as painted.
   */
  showRulesInForce(rules) {
    this.labelRules = rules;
    if (this.state) this.describe(this.state);
  }

  /** Writes the board's label: its size, the rules in force and the TICK things' coming beats. */
  describe(state) {
    const rules = (this.labelRules ?? state.rules ?? []).map(ruleText);
    this.element.setAttribute(
      "aria-label",
      `Board, ${state.width} by ${state.height}. ${rules.length ? `Rules: ${rules.join(", ")}.` : "No rules."}` +
        ticksText(state.ticks || [], state.entities),
    );
  }

  /**
   * Animates `event` toward `state`. A running animation is finished first
   * (it jumps to its end), so input is never held behind an animation.
   */
  apply(event, state) {
    this.finishAnimations();
    const motion = !prefersReducedMotion() && event;
    const before = new Map(this.placements);
    const dyingParts = [];
    if (motion) {
      for (const record of event.destroyed || []) {
        const parts = this.elements.get(record.id);
        if (!parts) continue;
        this.elements.delete(record.id);
        dyingParts.push({ parts, record });
      }
    }
    this.draw(state);
    if (!motion) return;
    const paths = new Map();
    for (const move of event.moved || []) {
      if (!paths.has(move.id)) paths.set(move.id, [move.from]);
      paths.get(move.id).push(move.to);
    }
    const slideEnd = Math.max(0, ...[...paths.values()].map((points) => points.length - 1)) * SLIDE_MS;
    for (const [id, points] of paths) {
      const parts = this.elements.get(id);
      if (parts) this.slide(parts.root, points, before.get(id), this.placements.get(id));
    }
    for (const { parts, record } of dyingParts) {
      this.element.append(parts.root);
      this.dying.add(parts.root);
      const end = { x: record.at[0], y: record.at[1], offset: 0, scale: 1 };
      parts.root.style.transform = this.transformOf(end);
      parts.root.style.zIndex = "90";
      parts.root.dataset.dying = record.cause;
      if (paths.has(record.id)) this.slide(parts.root, paths.get(record.id), before.get(record.id), end);
      this.vanish(parts, record.cause, slideEnd * 0.6);
    }
    for (const blocked of event.blocked || []) {
      const parts = this.elements.get(blocked.id);
      if (parts && !paths.has(blocked.id))
        this.bump(parts.root, this.placements.get(blocked.id), blocked.dir);
    }
    // Things that come back (undo) and things EMPTY IS X made fade in where they stand.
    for (const record of [...(event.restored || []), ...(event.created || [])]) {
      const parts = this.elements.get(record.id);
      if (!parts) continue;
      parts.face.animate(
        [
          { opacity: 0, transform: "scale(0.6)" },
          { opacity: 1, transform: "none" },
        ],
        { duration: 180, delay: slideEnd * 0.5, easing: "ease-out", fill: "backwards" },
      );
    }
    for (const record of event.transformed || []) {
      const parts = this.elements.get(record.id);
      if (!parts) continue;
      parts.face.animate(
        [
          { transform: "scale(0.5)", opacity: 0.3 },
          { transform: "scale(1.15)", offset: 0.6 },
          { transform: "none" },
        ],
        { duration: 240, delay: slideEnd * 0.5, easing: "ease-out", fill: "backwards" },
      );
    }
    for (const id of sentenceIds(event.sentencesFormed, event.rulesAdded)) {
      const parts = this.elements.get(id);
      if (!parts) continue;
      parts.face.animate(
        [
          { filter: "brightness(1)", transform: "none" },
          { filter: "brightness(1.9)", transform: "scale(1.12)", offset: 0.35 },
          { filter: "brightness(1)", transform: "none" },
        ],
        { duration: 420, delay: slideEnd, easing: "ease-out" },
      );
    }
    for (const id of sentenceIds(event.sentencesBroken, event.rulesRemoved)) {
      const parts = this.elements.get(id);
      if (!parts) continue;
      parts.face.animate(
        [
          { filter: "brightness(1.5) saturate(1.2)", opacity: 1 },
          { filter: "none", opacity: "" },
        ],
        { duration: 360, delay: slideEnd, easing: "ease-in" },
      );
    }
  }

  /** Jumps every running animation to its end and drops what was dying. */
  finishAnimations() {
    for (const animation of this.element.getAnimations({ subtree: true })) {
      try {
        animation.finish();
      } catch {
        animation.cancel();
      }
    }
    for (const root of this.dying) root.remove();
    this.dying.clear();
  }

  /** Outlines the words with these ids (the ledger's hover), or none. */
  highlight(ids) {
    for (const id of this.highlighted) {
      const parts = this.elements.get(id);
      if (parts) delete parts.root.dataset.highlight;
    }
    this.highlighted = new Set(ids);
    for (const id of this.highlighted) {
      const parts = this.elements.get(id);
      if (parts) parts.root.dataset.highlight = "true";
    }
    this.element.classList.toggle("is-highlighting", this.highlighted.size > 0);
  }

  elementFor(entity) {
    const existing = this.elements.get(entity.id);
    // vocabulary-1 can turn a thing into a word tile and back (IS TEXT): a
    // tile of another kind or text is drawn afresh.
    const same =
      existing &&
      existing.root.dataset.kind === entity.kind &&
      (entity.kind !== "word" || existing.root.dataset.text === entity.text);
    if (same) return existing;
    if (existing) {
      existing.root.remove();
      this.elements.delete(entity.id);
    }
    const root = document.createElement("div");
    root.className = "entity";
    root.dataset.id = String(entity.id);
    root.dataset.kind = entity.kind;
    const face = document.createElement("div");
    face.className = "face";
    root.append(face);
    const parts = { root, face, glyph: null, noun: null };
    if (entity.kind === "word") {
      root.dataset.text = entity.text;
      dressWordTile(root, entity.text, this.vocabulary);
      // One line, never broken inside the word: fitWord sizes it (word-fit.js).
      const word = document.createElement("span");
      word.className = "word";
      word.textContent = entity.text;
      face.append(word);
      this.fitWord(root);
    }
    this.element.append(root);
    this.elements.set(entity.id, parts);
    return parts;
  }

  dress(parts, entity, lit, youNouns) {
    const { root } = parts;
    root.dataset.x = String(entity.x);
    root.dataset.y = String(entity.y);
    root.dataset.facing = entity.facing;
    if (entity.kind === "word") {
      root.dataset.lit = String(lit.has(entity.id));
      if (this.highlighted.has(entity.id)) root.dataset.highlight = "true";
      return;
    }
    if (parts.noun !== entity.noun) this.drawObject(parts, entity.noun);
    root.dataset.you = String(youNouns.has(entity.noun));
    if (entity.facing === "left") this.lookingLeft.set(entity.id, true);
    else if (entity.facing === "right") this.lookingLeft.set(entity.id, false);
    const glyph = this.palette[entity.noun];
    if (parts.glyph && glyph?.faces) {
      const looksLeft = this.lookingLeft.get(entity.id) ?? false;
      const mirrored = glyph.faces === "left" ? !looksLeft : looksLeft;
      parts.glyph.dataset.mirror = String(mirrored);
    }
  }

  drawObject(parts, noun) {
    parts.noun = noun;
    parts.root.dataset.noun = noun;
    parts.face.replaceChildren();
    const glyph = this.palette[noun];
    if (glyph?.glyph) {
      const span = document.createElement("span");
      span.className = "glyph";
      span.textContent = glyph.glyph;
      span.setAttribute("aria-hidden", "true");
      parts.glyph = span;
      parts.face.append(span);
    } else {
      const box = document.createElement("span");
      box.className = "noun-box";
      box.textContent = noun;
      box.style.setProperty("--len", String(Math.max(2, [...noun].length)));
      parts.glyph = null;
      parts.face.append(box);
    }
  }

  /**
   * Draws each TICK thing's coming beats: one faint marker per cell it
   * reaches, numbered with the beats (1 is the next) that bring it there.
   * Markers carry `data-for` (the thing's id), `data-beats` ("1 2") and
   * `data-x`, `data-y`.
   */
  drawTickPaths(ticks, entities) {
    const markers = [];
    const byId = new Map(entities.map((entity) => [entity.id, entity]));
    const occupied = new Set(entities.map((entity) => `${entity.x},${entity.y}`));
    ticks.forEach((tick, order) => {
      const entity = byId.get(tick.id);
      const name = entity?.noun ?? entity?.text ?? "TICK thing";
      // Several TICK things: each one's markers sit side by side in the lower part of a
      // cell, in the colour of its own beat badge, so two paths through one cell stay apart.
      const several = ticks.length > 1;
      const spread = several ? (order - (ticks.length - 1) / 2) * Math.min(0.34, 0.9 / ticks.length) : 0;
      const byCell = new Map();
      tick.path.forEach(([x, y], index) => {
        const key = `${x},${y}`;
        if (!byCell.has(key)) byCell.set(key, { x, y, beats: [] });
        byCell.get(key).beats.push(index + 1);
      });
      for (const { x, y, beats } of byCell.values()) {
        const marker = document.createElement("div");
        marker.className = "tick-step";
        marker.dataset.for = String(tick.id);
        marker.dataset.owner = String(order % PATH_COLOURS);
        marker.dataset.beats = beats.join(" ");
        marker.dataset.x = String(x);
        marker.dataset.y = String(y);
        marker.dataset.first = String(beats[0] === 1);
        marker.title = `${name} after ${beats.length === 1 ? "beat" : "beats"} ${beats.join(", ")}`;
        // On a cell that holds something the marker keeps to its lower right corner (to its
        // lower edge when several paths share the cell), clear of the word or the glyph.
        const taken = occupied.has(`${x},${y}`);
        marker.dataset.corner = String(taken);
        const across = several ? spread : taken ? 0.33 : 0;
        const down = several || taken ? 0.33 : 0;
        marker.style.transform = `translate(${(x + across) * this.tile}px, ${(y + down) * this.tile}px)`;
        const label = document.createElement("span");
        label.textContent = beats.join("·");
        marker.append(label);
        markers.push(marker);
      }
    });
    this.pathLayer.replaceChildren(...markers);
  }

  transformOf({ x, y, offset, scale, dx = 0, dy = 0 }, nudge = [0, 0]) {
    const px = x * this.tile + offset + dx * this.tile + nudge[0];
    const py = y * this.tile - offset + dy * this.tile + nudge[1];
    return scale === 1 ? `translate(${px}px, ${py}px)` : `translate(${px}px, ${py}px) scale(${scale})`;
  }

  slide(root, points, previous, end) {
    const frames = points.map((point, index) => {
      if (index === points.length - 1) return { transform: this.transformOf(end) };
      const [x, y] = point;
      const placement =
        index === 0 && previous && previous.x === x && previous.y === y
          ? previous
          : { ...end, x, y };
      return { transform: this.transformOf(placement), easing: "cubic-bezier(.25,.75,.35,1)" };
    });
    root.animate(frames, { duration: SLIDE_MS * (points.length - 1), easing: "linear" });
  }

  bump(root, placement, direction) {
    if (!placement) return;
    const reach = this.tile * 0.18;
    const nudged = this.transformOf(placement, [direction[0] * reach, direction[1] * reach]);
    const rest = this.transformOf(placement);
    root.animate([{ transform: rest }, { transform: nudged, offset: 0.4 }, { transform: rest }], {
      duration: BUMP_MS,
      easing: "ease-out",
    });
  }

  vanish(parts, cause, delay) {
    let frames;
    let duration;
    if (cause === "sink") {
      frames = [
        { transform: "none", opacity: 1, filter: "none" },
        { transform: "translateY(22%) scale(0.5)", opacity: 0, filter: "blur(1px) hue-rotate(40deg)" },
      ];
      duration = 320;
    } else if (cause === "defeat") {
      frames = [
        { transform: "none", opacity: 1 },
        { transform: "translateX(-12%) rotate(-6deg)", offset: 0.12 },
        { transform: "translateX(12%) rotate(6deg)", offset: 0.26 },
        { transform: "translateX(-9%) rotate(-4deg)", offset: 0.4 },
        { transform: "translateX(7%) rotate(3deg)", offset: 0.54 },
        { transform: "none", opacity: 1, offset: 0.66 },
        { transform: "scale(0.7)", opacity: 0 },
      ];
      duration = 420;
    } else {
      frames = [
        { transform: "none", opacity: 1 },
        { transform: "scale(1.35)", opacity: 0.9, offset: 0.4 },
        { transform: "scale(1.7)", opacity: 0 },
      ];
      duration = 300;
    }
    const animation = parts.face.animate(frames, { duration, delay, easing: "ease-in", fill: "forwards" });
    const drop = () => {
      parts.root.remove();
      this.dying.delete(parts.root);
    };
    animation.addEventListener("finish", drop);
    animation.addEventListener("cancel", drop);
  }
}

function sentenceIds(sentences, rules) {
  const ids = new Set();
  if (Array.isArray(sentences)) {
    for (const sentence of sentences) for (const id of sentence.ids) ids.add(id);
  } else {
    for (const rule of rules || []) for (const id of rule.sourceIds) ids.add(id);
  }
  return ids;
}

/**
 * Where each member of one cell's stack is drawn (`stack` in drawing order):
 * `{x, y, offset, scale, dx, dy, corner}`. A lone entity fills its cell.
 * Where words share a cell with things, the words stay large and the
 * things sit small on the cell's lower corner (`corner`), so a word under
 * a thing is never hidden and the thing still shows. Otherwise the stack
 * fans out along the diagonal, smaller, so every member shows.
 */
export function stackPlacements(stack, tile) {
  const [first] = stack;
  if (stack.length === 1) return [{ x: first.x, y: first.y, offset: 0, scale: 1 }];
  const words = stack.filter((entity) => entity.kind === "word");
  const things = stack.filter((entity) => entity.kind !== "word");
  const fan = (count, index) => {
    if (count === 1) return 0;
    const step = Math.min(Math.max(2, Math.round(tile * 0.2)), (tile * 0.4) / (count - 1));
    return Math.round((index - (count - 1) / 2) * step);
  };
  if (!words.length || !things.length) {
    return stack.map((entity, index) => ({ x: entity.x, y: entity.y, offset: fan(stack.length, index), scale: STACK_SCALE }));
  }
  const wordScale = words.length === 1 ? 0.84 : STACK_SCALE;
  return stack.map((entity) => {
    if (entity.kind === "word") {
      return { x: entity.x, y: entity.y, offset: fan(words.length, words.indexOf(entity)), scale: wordScale, dx: -0.06, dy: -0.06 };
    }
    // Things line up along the lower edge from the right-hand corner.
    const index = things.indexOf(entity);
    const dx = 0.27 - Math.min(index, 2) * 0.22;
    return { x: entity.x, y: entity.y, offset: 0, scale: 0.46, dx, dy: 0.27, corner: true };
  });
}

/** Shows `facing` ("right", "down", "left", "up") as a small arrow on the thing's edge, or none (null). */
function markFacing(parts, facing) {
  let mark = parts.root.querySelector(":scope > .facing-mark");
  if (!facing) {
    mark?.remove();
    delete parts.root.dataset.facingMark;
    return;
  }
  if (!mark) {
    mark = document.createElement("span");
    mark.className = "facing-mark";
    mark.setAttribute("aria-hidden", "true");
    parts.root.append(mark);
  }
  mark.title = `Faces ${facing}`;
  parts.root.dataset.facingMark = facing;
}

/** Shows a TICK thing's beat ("2/10": its next beat takes step 2 of 10), or none. */
function markBeat(parts, tick, owner) {
  let badge = parts.root.querySelector(":scope > .beat-badge");
  if (!tick) {
    badge?.remove();
    delete parts.root.dataset.beat;
    return;
  }
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "beat-badge";
    badge.setAttribute("aria-hidden", "true");
    parts.root.append(badge);
  }
  // ✕: waiting would destroy it (on the beat after its path ends).
  badge.textContent = `${tick.beat + 1}/${tick.beats}${tick.gone ? " ✕" : ""}`;
  badge.dataset.gone = String(Boolean(tick.gone));
  badge.dataset.owner = String(owner ?? 0);
  badge.title = `Its next beat takes step ${tick.beat + 1} of ${tick.beats} of its pattern${tick.gone ? "; waiting would destroy it" : ""}`;
  parts.root.dataset.beat = String(tick.beat);
}

/** The TICK things' coming beats in words, for the board's label: " MOUSE, next beats: 7 3, 6 3." */
function ticksText(ticks, entities) {
  if (!ticks.length) return "";
  const names = new Map(entities.map((entity) => [entity.id, entity.noun ?? `the word ${entity.text}`]));
  const lines = ticks.map((tick) => {
    const cells = tick.path.map(([x, y]) => `column ${x + 1} row ${y + 1}`).join(", then ");
    const gone = tick.gone ? `, destroyed after beat ${tick.path.length + 1} if you wait` : "";
    return `${names.get(tick.id) ?? "A TICK thing"}, step ${tick.beat + 1} of ${tick.beats}${cells ? `, next at ${cells}` : ""}${gone}`;
  });
  return ` Clockwork: ${lines.join("; ")}.`;
}
