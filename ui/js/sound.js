// Short synthesised sounds (no audio files): a tap for a step, a click per jump or capture.

let ctx = null;
let enabled = true;

export function setSoundEnabled(on) { enabled = on; }

function audio() {
  if (!ctx) {
    const AC = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  return ctx;
}

function tone(at, freq, dur, gain) {
  const a = audio();
  if (!a) return;
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = 'triangle';
  o.frequency.value = freq;
  g.gain.setValueAtTime(gain, a.currentTime + at);
  g.gain.exponentialRampToValueAtTime(0.0001, a.currentTime + at + dur);
  o.connect(g).connect(a.destination);
  o.start(a.currentTime + at);
  o.stop(a.currentTime + at + dur);
}

// A running AudioContext keeps an audio thread busy: it is suspended once the last tone ended.
let idleTimer = 0;

export function playMoveSound(move, legDuration = 0.17) {
  if (!enabled || !move || move.pass) return;
  try {
    const legs = Math.max(1, (move.path || []).length - 1);
    const a = audio();
    if (a && a.state === 'suspended') a.resume();
    for (let i = 0; i < legs; i++) tone(legDuration * (i + 1), move.captures && move.captures.length ? 330 : 520, 0.08, 0.12);
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => { if (ctx && ctx.state === 'running') ctx.suspend(); }, (legDuration * (legs + 1) + 0.3) * 1000);
  } catch { /* audio unavailable */ }
}
