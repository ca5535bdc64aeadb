// Sound: short effects generated with the Web Audio API (oscillators, a
// noise buffer and gain envelopes; no audio files to ship or license), one
// per kind of turn: a move, a push, a blocked move, a rule formed or broken,
// each destruction cause, a win, a loss, undo and restart.
//
// Browsers let a page make sound only after the player's first key press or
// tap; the audio context is made then, never before, so nothing plays on
// load. The volume and mute switch are kept per browser (localStorage
// `miau.sound`). What a turn sounds like is decided by `soundsFor`, a plain
// function the node tests check; the synthesis below only renders names.

const SETTINGS_KEY = "miau.sound";
const DEFAULT_VOLUME = 0.6;

/** The most sounds one turn plays: the move, then what matters most. */
export const MAX_SOUNDS_PER_TURN = 3;

function moved(record) {
  return record.from?.[0] !== record.to?.[0] || record.from?.[1] !== record.to?.[1];
}

/**
 * The effects a turn deserves, most important first, at most
 * MAX_SOUNDS_PER_TURN: the outcome (win, loss), destruction (by cause),
 * rules formed and broken, then the move itself (push, move or blocked).
 */
export function soundsFor(event, state, previous = null) {
  if (!event) return [];
  if (!event.accepted) return event.blocked?.length || event.kind === "step" ? ["blocked"] : [];
  const sounds = [];
  if (event.kind === "undo") sounds.push("undo");
  else if (event.kind === "reset") sounds.push("restart");
  if (state.won) sounds.push("win");
  else if (state.controlLost && !previous?.controlLost) sounds.push("loss");
  for (const cause of new Set((event.destroyed || []).map((record) => record.cause))) {
    // A server newer than this page may send a cause it has no sound for yet.
    sounds.push(Object.hasOwn(EFFECTS, `destroy-${cause}`) ? `destroy-${cause}` : "destroy-other");
  }
  if (event.kind === "step") {
    if (event.rulesAdded?.length) sounds.push("rule-formed");
    if (event.rulesRemoved?.length) sounds.push("rule-broken");
    const movedRecords = (event.moved || []).filter(moved);
    const pushed = movedRecords.some((record) => record.pushedBy !== null && record.pushedBy !== undefined);
    if (pushed) sounds.push("push");
    else if (movedRecords.length) sounds.push("move");
    else if (event.blocked?.length) sounds.push("blocked");
  }
  return sounds.slice(0, MAX_SOUNDS_PER_TURN);
}

function readSettings(storage) {
  try {
    const stored = JSON.parse(storage?.getItem(SETTINGS_KEY) || "null");
    const volume = Number(stored?.volume);
    return {
      volume: Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : DEFAULT_VOLUME,
      muted: Boolean(stored?.muted),
    };
  } catch {
    return { volume: DEFAULT_VOLUME, muted: false };
  }
}

// Each effect: tones `[type, startHz, endHz, seconds, delay, gain]` and an
// optional noise burst `[seconds, filterHz, gain, delay]`. Short (under half
// a second but for win and loss) and quiet, so a held key stays pleasant.
const EFFECTS = {
  move: { tones: [["triangle", 520, 440, 0.06, 0, 0.18]] },
  push: { tones: [["square", 220, 180, 0.08, 0, 0.1]], noise: [0.07, 900, 0.12, 0] },
  blocked: { tones: [["sine", 140, 110, 0.09, 0, 0.28]] },
  undo: { tones: [["triangle", 440, 560, 0.07, 0, 0.14]] },
  restart: { tones: [["sawtooth", 600, 200, 0.22, 0, 0.08]] },
  "rule-formed": {
    tones: [
      ["triangle", 660, 660, 0.09, 0, 0.16],
      ["triangle", 880, 880, 0.12, 0.07, 0.16],
    ],
  },
  "rule-broken": {
    tones: [
      ["triangle", 660, 660, 0.09, 0, 0.14],
      ["triangle", 495, 495, 0.12, 0.07, 0.14],
    ],
  },
  "destroy-sink": { tones: [["sine", 300, 90, 0.3, 0, 0.22]], noise: [0.25, 400, 0.08, 0] },
  "destroy-defeat": { tones: [["sawtooth", 180, 60, 0.25, 0, 0.12]], noise: [0.12, 2000, 0.1, 0] },
  "destroy-melt": { noise: [0.35, 3000, 0.1, 0] },
  "destroy-weak": { noise: [0.08, 1500, 0.2, 0] },
  "destroy-open": {
    tones: [
      ["sine", 990, 990, 0.1, 0, 0.12],
      ["sine", 1320, 1320, 0.16, 0.06, 0.12],
    ],
  },
  "destroy-empty": { tones: [["sine", 520, 130, 0.2, 0, 0.1]] },
  "destroy-other": { noise: [0.15, 1000, 0.12, 0] },
  win: {
    tones: [
      ["triangle", 523, 523, 0.14, 0, 0.18],
      ["triangle", 659, 659, 0.14, 0.11, 0.18],
      ["triangle", 784, 784, 0.14, 0.22, 0.18],
      ["triangle", 1047, 1047, 0.32, 0.33, 0.2],
    ],
  },
  loss: {
    tones: [
      ["sine", 392, 392, 0.16, 0, 0.18],
      ["sine", 330, 330, 0.16, 0.14, 0.18],
      ["sine", 262, 220, 0.34, 0.28, 0.18],
    ],
  },
};

/** The effect names there are (every name `soundsFor` can give). */
export const EFFECT_NAMES = Object.keys(EFFECTS);

/**
 * The game's sound: `turn(event, state, previous)` for the controller,
 * `setVolume`, `setMuted` and `subscribe(listener)` for the controls.
 * `audio()` makes the AudioContext (the browser's, by default); it is called
 * on the first key press or tap, not before.
 */
export class SoundBoard {
  constructor({ storage = globalThis.localStorage, audio = () => new AudioContext(), target = globalThis } = {}) {
    this.storage = storage;
    this.makeAudio = audio;
    this.context = null;
    this.noise = null;
    this.played = 0;
    this.listeners = new Set();
    Object.assign(this, readSettings(storage));
    this.unlock = () => this.start();
    this.target = target;
    target?.addEventListener?.("keydown", this.unlock, { once: true, capture: true });
    target?.addEventListener?.("pointerdown", this.unlock, { once: true, capture: true });
  }

  /** "waiting" (no key pressed yet), "muted" or "on". */
  get status() {
    if (this.muted) return "muted";
    return this.context ? "on" : "waiting";
  }

  /** Makes the audio context: the player has pressed a key or tapped. */
  start() {
    this.target?.removeEventListener?.("keydown", this.unlock, { capture: true });
    this.target?.removeEventListener?.("pointerdown", this.unlock, { capture: true });
    if (this.context) return;
    try {
      this.context = this.makeAudio();
    } catch {
      this.context = null; // no Web Audio: the game stays silent
    }
    this.changed();
  }

  /** Plays what a turn deserves (see soundsFor). */
  turn(event, state, previous = null) {
    for (const name of soundsFor(event, state, previous)) this.play(name);
  }

  /** Plays one effect by name, unless muted or before the first key press. */
  play(name) {
    const effect = EFFECTS[name];
    if (!effect || this.muted || this.volume <= 0 || !this.context) return false;
    if (this.context.state === "suspended") this.context.resume?.();
    this.played += 1;
    this.render(effect);
    this.changed();
    return true;
  }

  setVolume(volume) {
    this.volume = Math.min(1, Math.max(0, Number(volume) || 0));
    this.save();
  }

  setMuted(muted) {
    this.muted = Boolean(muted);
    this.save();
  }

  save() {
    try {
      this.storage?.setItem(SETTINGS_KEY, JSON.stringify({ volume: this.volume, muted: this.muted }));
    } catch {
      // Refused storage: the setting lasts for this page.
    }
    this.changed();
  }

  /** Calls `listener(board)` on every change of status, volume or count; returns the way to stop. */
  subscribe(listener) {
    this.listeners.add(listener);
    listener(this);
    return () => this.listeners.delete(listener);
  }

  changed() {
    for (const listener of this.listeners) listener(this);
  }

  render(effect) {
    const context = this.context;
    const now = context.currentTime;
    const master = context.createGain();
    master.gain.value = this.volume;
    master.connect(context.destination);
    for (const [type, from, to, seconds, delay, gain] of effect.tones || []) {
      const oscillator = context.createOscillator();
      const envelope = context.createGain();
      const start = now + delay;
      oscillator.type = type;
      oscillator.frequency.setValueAtTime(from, start);
      oscillator.frequency.exponentialRampToValueAtTime(Math.max(20, to), start + seconds);
      envelope.gain.setValueAtTime(0.0001, start);
      envelope.gain.exponentialRampToValueAtTime(gain, start + 0.008);
      envelope.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
      oscillator.connect(envelope).connect(master);
      oscillator.start(start);
      oscillator.stop(start + seconds + 0.02);
    }
    if (effect.noise) {
      const [seconds, filterHz, gain, delay] = effect.noise;
      const source = context.createBufferSource();
      source.buffer = this.noiseBuffer();
      const filter = context.createBiquadFilter();
      filter.type = "lowpass";
      filter.frequency.value = filterHz;
      const envelope = context.createGain();
      const start = now + delay;
      envelope.gain.setValueAtTime(gain, start);
      envelope.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
      source.connect(filter).connect(envelope).connect(master);
      source.start(start);
      source.stop(start + seconds + 0.02);
    }
  }

  noiseBuffer() {
    if (this.noise) return this.noise;
    const context = this.context;
    const buffer = context.createBuffer(1, Math.floor(context.sampleRate * 0.4), context.sampleRate);
    const samples = buffer.getChannelData(0);
    // A fixed pseudo-random sequence: the same hiss every time, no Math.random.
    let seed = 0x2545f491;
    for (let index = 0; index < samples.length; index += 1) {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      samples[index] = ((seed >>> 0) / 0xffffffff) * 2 - 1;
    }
    this.noise = buffer;
    return buffer;
  }
}

let shared = null;

/** The page's one SoundBoard (made on first use). */
export function sound() {
  if (!shared) shared = new SoundBoard();
  return shared;
}
