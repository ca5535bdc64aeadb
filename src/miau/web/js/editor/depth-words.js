// The depth panel's words: a depth profile (`miau.solver.depth`'s
// `DepthProfile.to_json()`) and suggested variations put into plain
// sentences, and the dead squares' labels. No DOM here, so node tests it.

/** What each depth tier means, by its number (docs/depth.md has the formula). */
export const TIER_LINES = [
  "A walk: the solver proves it at once and no rule needs changing.",
  "A warm-up: one small idea, found after a short search.",
  "A puzzle: the way needs rule changes or a search of thousands of states.",
  "Deep: several rule changes, a large search or many ways to get stuck.",
  "Very deep: among the hardest levels the solver measures.",
];

/** The tier names, by number, as `miau.solver.depth.TIER_NAMES`. */
export const TIER_NAMES = ["walk", "warm-up", "puzzle", "deep", "very deep"];

const number = (value) => Math.round(Number(value) || 0).toLocaleString("en-US");
const plural = (count, one, many = `${one}s`) => `${number(count)} ${count === 1 ? one : many}`;

/** A list of words as English: "a", "a and b", "a, b and c". */
export function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** The one-line explanation of tier `tier` (an unknown tier gets an empty line). */
export function tierLine(tier) {
  return TIER_LINES[tier] ?? "";
}

/** The shortest solution in words. */
function shortestFact(profile) {
  if (profile.outcome === "solved") return plural(profile.length, "move");
  if (profile.outcome === "unsolvable") return "none: the level cannot be won";
  return `none found within ${number(profile.expanded)} states`;
}

/** The rule changes along the shortest solution, and which rules. */
function ruleFact(profile) {
  const formed = profile.rulesFormed || [];
  const broken = profile.rulesBroken || [];
  if (profile.outcome !== "solved") return "–";
  if (!formed.length && !broken.length) return "none: no rule is formed or broken on the way";
  const parts = [];
  if (formed.length) parts.push(`forms ${listWords(formed)}`);
  if (broken.length) parts.push(`breaks ${listWords(broken)}`);
  return `${number(formed.length + broken.length)}: ${parts.join("; ")}`;
}

/** How many shortest solutions, up to the bound. */
function countFact(profile) {
  const count = profile.shortestSolutions;
  if (count == null) return profile.outcome === "solved" ? "not counted (too many states to walk)" : "–";
  if (count >= profile.shortestBound) return `${number(profile.shortestBound)} or more`;
  return number(count);
}

/** The dead-end share, with its sample when it was sampled. */
function deadEndFact(profile) {
  const dead = profile.deadEnds || {};
  if (dead.share == null) return "not decided";
  const percent = `${Math.round(dead.share * 1000) / 10}%`;
  if (dead.exact) return `${percent} of ${plural(dead.sample, "reachable state")}`;
  const undecided = dead.undecided ? `, ${number(dead.undecided)} undecided` : "";
  return `about ${percent} (a sample of ${plural(dead.sample, "state")}${undecided})`;
}

/** Whether the baselines win; "not measured here" when the profile has none. */
function baselineFact(profile) {
  const baselines = profile.baselines;
  if (!baselines) return "not measured here";
  const entries = Object.entries(baselines);
  if (!entries.length) return "not measured here";
  return entries.map(([name, won]) => `${name} ${won ? "wins" : "does not win"}`).join(", ");
}

/**
 * The profile's figures as `[key, label, value]` lines, in the order the
 * panel shows them.
 */
export function profileFacts(profile) {
  return [
    ["length", "Shortest solution", shortestFact(profile)],
    ["rules", "Rule changes", ruleFact(profile)],
    ["handsOff", "Without pushing a word", handsOffFact(profile)],
    ["expanded", "States to prove it shortest", number(profile.expanded)],
    ["solutions", "Shortest solutions", countFact(profile)],
    ["deadEnds", "Dead ends", deadEndFact(profile)],
    ["baselines", "Random and greedy baselines", baselineFact(profile)],
    ["deadSquares", "Dead squares", deadSquareFact(profile)],
  ];
}

function handsOffFact(profile) {
  if (profile.handsOff === true) return "winnable: the words can stay where they are";
  if (profile.handsOff === false) return "not winnable: a word must move";
  return "–";
}

/**
 * The kinds of word a dead square can be dead for, in the order a square
 * lists them (`miau.solver.dead_squares.WORD_KINDS`), each with the letter
 * its mark on the grid shows: the first letter of the kind's name.
 */
export const DEAD_KINDS = [
  { kind: "noun", letter: "N" },
  { kind: "operator", letter: "O" },
  { kind: "property", letter: "P" },
];

/** The kinds a dead square (`{x, y, kinds}`) is dead for, as `{kind, letter}`, in DEAD_KINDS order. */
export function deadSquareKinds(square) {
  const kinds = new Set(square.kinds || []);
  return DEAD_KINDS.filter(({ kind }) => kinds.has(kind));
}

function deadSquareFact(profile) {
  const squares = profile.deadSquares || [];
  if (profile.deadSquareWalls === "not analysed") return "not analysed (words can move by themselves here)";
  if (!squares.length) return "none";
  const marked = new Set(squares.flatMap((square) => square.kinds || []));
  const key = DEAD_KINDS.filter(({ kind }) => marked.has(kind)).map(({ kind, letter }) => `${letter} ${kind}`);
  return `${plural(squares.length, "cell")}, marked on the grid by kind: ${listWords(key)}`;
}

/** The depth figure and tier as a headline: "Depth 2.8 · tier 2 of 4". */
export function depthHeadline(profile) {
  return `Depth ${(Number(profile.depth) || 0).toFixed(1)} · tier ${profile.tier} of ${TIER_NAMES.length - 1}`;
}

/** How long a measurement took, in words: "Measured in 1.4 s" ("under 0.1 s" when quicker). */
export function measuredIn(seconds) {
  const value = Number(seconds) || 0;
  return value < 0.1 ? "Measured in under 0.1 s." : `Measured in ${value.toFixed(1)} s.`;
}

const KIND_WORDS = { noun: "noun", operator: "operator (IS, AND)", property: "property" };

/**
 * The tooltip and label of a dead square (`{x, y, kinds}`): which kinds of
 * word pushed into it can never reach a place where they could be part of
 * a rule, and what the analysis counted as walls (`walls`, the profile's
 * `deadSquareWalls`).
 */
export function deadSquareLabel(square, walls = "edge") {
  const kinds = listWords((square.kinds || []).map((kind) => KIND_WORDS[kind] || kind));
  const by = walls === "edge and fixed walls" ? "the edge and the walls that never move" : "the edge";
  return (
    `Dead square (${square.x}, ${square.y}): ${/^[aeiou]/i.test(kinds) ? "an" : "a"} ${kinds} word pushed here can never reach ` +
    `a place where it could be part of a rule (hemmed in by ${by}).`
  );
}

/**
 * What a suggested variation's card says: `title`, `size` ("9 × 5"),
 * `moves` (its shortest solution's length) and `tier` ("tier 2, puzzle"),
 * from the studio's `{level, depth, tier}`.
 */
export function variationSummary(variation) {
  const level = variation.level || {};
  const moves = (level.solution || "").length;
  return {
    title: level.title || level.id || "Variation",
    size: `${level.width} × ${level.height}`,
    moves: plural(moves, "move"),
    tier: `tier ${variation.tier}, ${TIER_NAMES[variation.tier] || "?"}`,
    depth: (Number(variation.depth) || 0).toFixed(1),
  };
}

const ARROWS = { U: "↑", D: "↓", L: "←", R: "→", W: "·" };

/** A move string as arrows (`W`, a wait, as a dot), for people to read. */
export function movesAsArrows(moves) {
  return [...(moves || "")].map((letter) => ARROWS[letter] || letter).join("");
}

const CHANGE_WORDS = { added: "added", moved: "moved here", removed: "removed", "moved-from": "moved away" };

/**
 * One line that counts a variation's changed cells (`changes`, from the
 * studio: `{x, y, change}`): "3 cells changed: 1 added, 1 moved, 1 removed".
 */
export function changesLine(changes) {
  const list = changes || [];
  if (!list.length) return "No cell changed.";
  const counts = { added: 0, moved: 0, removed: 0 };
  for (const change of list) {
    if (change.change in counts) counts[change.change] += 1;
  }
  const parts = Object.entries(counts)
    .filter(([, count]) => count)
    .map(([change, count]) => `${count} ${change}`);
  const cells = list.filter((change) => change.change !== "moved-from").length;
  return `${plural(cells, "cell")} changed: ${parts.join(", ")}`;
}

/** What a changed cell's mark says, for its tooltip and the screen reader. */
export function changeLabel(change) {
  return `${change.what} ${CHANGE_WORDS[change.change] || change.change} (${change.x}, ${change.y})`;
}

/**
 * A tiny preview of a level entry with `objects`: rows of cells, each
 * `null` (empty) or `{kind: "word" | "object", text}`, the top entity of the
 * cell (the last one listed).
 */
export function previewCells(level) {
  const rows = Array.from({ length: level.height }, () => Array(level.width).fill(null));
  for (const entry of level.objects || []) {
    if (entry.y < 0 || entry.y >= level.height || entry.x < 0 || entry.x >= level.width) continue;
    rows[entry.y][entry.x] =
      entry.kind === "word" ? { kind: "word", text: entry.text } : { kind: "object", text: entry.noun };
  }
  return rows;
}

/**
 * The draft's pack with its one level replaced by `level` (a suggested
 * variation): the pack's manifest, palette and words are kept, and so are
 * the draft level's id, title and fields the variation does not set
 * (`solverMax`, `hint`, ...), while the grid, the objects, the automata,
 * the pairs and the solution come from the variation.
 */
export function packWithLevel(pack, level) {
  const old = pack.levels[0] || {};
  const next = { ...old };
  for (const key of ["map", "legend", "objects", "automata", "pairs"]) delete next[key];
  Object.assign(next, {
    // The author's title stays: a variation is their level changed, not a new one to name.
    title: old.title || level.title,
    width: level.width,
    height: level.height,
    objects: level.objects,
  });
  if (level.automata?.length) next.automata = level.automata;
  if (level.pairs?.length) next.pairs = level.pairs;
  if (level.solution) next.solution = level.solution;
  else delete next.solution;
  return { ...pack, levels: [next] };
}
