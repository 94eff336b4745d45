// Last moves: in a three-seat Diamond game against the CPU, after your move both CPU replies
// are marked (origin ring, route, and the piece that arrived ringed), drawn above the pieces, and
// said in the status line and the live region — not just the last one. On the SVG board (the
// setting; the 3D board's marks are checked in 30), whose layers show the marks above the pieces.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { finalScreenshot, launchToHome, setBoard } from '../lib/flows.mjs';

export default {
  name: 'last-moves',
  title: 'Diamond 3 seats vs CPU: every CPU move since your turn is marked and said',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    await setBoard(t, '2d');
    await ui.startGame('diamond', { players: 3, mode: 'cpu', level: 'easy' });
    let view = await ui.view();
    await ui.playByTaps(view.legal_moves.find((m) => !m.pass));
    const s = await ui.waitFor((x) => x.game.busy === 'false' && !x.thinking && x.game.toMove === '0' && Number(x.game.ply) === 3, 'both CPU replies', 60000);
    view = await ui.view();
    const replies = view.history.slice(1).filter((e) => !e.move.pass);
    assert.deepEqual(s.lastMoves, replies.map((e) => ({ from: e.move.from, to: e.move.to })), 'both CPU moves are marked');
    const marks = await t.driver.executeScript(`
      const layers = [...document.querySelector('svg[data-testid=board]').children].map((g) => g.getAttribute('class'));
      return {
        layers,
        arrived: [...document.querySelectorAll('[data-testid=last-to]')].map((e) => e.dataset.cell),
        seats: [...document.querySelectorAll('[data-testid=last-move]')].map((e) => Number(e.dataset.seat)),
      };`);
    assert.ok(marks.layers.indexOf('layer-last') > marks.layers.indexOf('layer-pieces'), `the marks are above the pieces (${marks.layers})`);
    assert.deepEqual(marks.arrived, replies.map((e) => e.move.to), 'the pieces that arrived are ringed');
    assert.deepEqual(marks.seats, replies.map((e) => e.seat));
    for (const e of replies) {
      assert.ok(s.pieces.some((p) => p.cell === e.move.to && p.seat === e.seat), `a piece of seat ${e.seat} stands on ${e.move.to}`);
    }
    // In words: one sentence per CPU move, in the status line and the live region. The live
    // region is emptied and then written a frame later (announce.js: a repeated sentence is read
    // again), and frames come irregularly under Xvfb: wait for its sentence.
    const names = { 1: 'Amarillo', 2: 'Verde' };
    for (const e of replies) {
      assert.match(s.lastText, new RegExp(names[e.seat]), `the status line says ${names[e.seat]}'s move: "${s.lastText}"`);
    }
    let announced = null;
    await t.driver
      .wait(async () => {
        announced = await t.driver.executeScript("return document.querySelector('[data-testid=announcer]').textContent");
        return announced !== '';
      }, 20000)
      .catch(() => {});
    for (const e of replies) {
      assert.match(announced, new RegExp(names[e.seat]), `the live region says ${names[e.seat]}'s move: "${announced}"`);
    }
    // Both sentences, in the order played, as the status line shows them (there joined by " · ").
    assert.equal(announced, s.lastText.split(' · ').join('. '), 'the live region says what the status line shows');
    await finalScreenshot(t, PHONE);
  },
};
