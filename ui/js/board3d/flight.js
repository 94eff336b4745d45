// A move in the air on the 3D board: the mover's marble along its route, a hop per leg (higher for
// jumps), the marbles it takes vanishing as it passes over them. One `step(now)` per frame.

import { REST_Y } from './pieces.js';

/**
 * @param {object} o
 * @param {{position: {set: Function}}} o.node the mover's marble
 * @param {{x: number, z: number}[]} o.points the route's holes, from the origin to the landing
 * @param {{visible: boolean}[]} o.taken the taken marbles, in the order the mover passes them
 * @param {boolean} o.jumping a jump or a capture (a higher hop)
 * @param {number} o.legMs the time of one leg
 * @param {number} o.startedAt when the flight starts (ms, the frames' clock)
 * @returns {(now: number) => boolean} one frame's step: true while still in the air
 */
export function makeFlight({ node, points, taken, jumping, legMs, startedAt }) {
  const legs = points.length - 1;
  const total = legMs * legs * 1.6;
  return (now) => {
    const f = Math.max(0, Math.min(1, (now - startedAt) / total));
    const leg = Math.min(legs - 1, Math.floor(f * legs));
    const u = f * legs - leg;
    const a = points[leg], b = points[leg + 1];
    const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
    const hop = Math.sin(Math.PI * u) * (jumping ? 0.9 : 0.3);
    node.position.set(a.x + (b.x - a.x) * e, REST_Y + hop, a.z + (b.z - a.z) * e);
    taken.forEach((n, i) => { n.visible = !(f * legs > i + 0.5 || (legs === 1 && f > 0.5)); });
    if (f < 1) return true;
    node.position.set(points[legs].x, REST_Y, points[legs].z);
    return false;
  };
}
