// Star naming: in a pass-and-play star game a move keeps one text — in its mover's own F/P
// names — while the board turns from player to player.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

// Each move's words are its list button's label (the button shows the move's notation).
const items = (t) => t.driver.executeScript("return [...document.querySelectorAll('[data-testid=move-item]')].map((e) => e.getAttribute('aria-label'))");
const ownName = (view, cell, seat) => view.layout.cells.find((c) => c.name === cell).view_names[seat].replace(/^F(\d+)P(\d+)$/, 'F$1 P$2');

export default {
  name: 'star-naming',
  title: 'Pass-and-play Diamond: a move\'s text does not change as the board turns',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    await ui.startGame('diamond', { players: 3, mode: 'local' });
    let view = await ui.view();
    await ui.playByTaps(view.legal_moves.find((m) => !m.pass));
    let s = await ui.waitIdle();
    assert.equal(s.game.viewer, '1', 'the board turned to Yellow');
    view = await ui.view();
    const red = view.history[0];
    const first = await items(t);
    assert.equal(first.length, 1);
    assert.ok(first[0].includes(ownName(view, red.move.from, 0)) && first[0].includes(ownName(view, red.move.to, 0)), `Red's move in Red's names: "${first[0]}"`);
    assert.equal(s.lastText, first[0]);
    await ui.playByTaps(view.legal_moves.find((m) => !m.pass));
    s = await ui.waitIdle();
    assert.equal(s.game.viewer, '2', 'the board turned to Green');
    const second = await items(t);
    assert.equal(second[0], first[0], 'the first move reads the same after two turns of the board');
    view = await ui.view();
    const yellow = view.history[1];
    assert.ok(second[1].includes(ownName(view, yellow.move.from, 1)), `Yellow's move in Yellow's names: "${second[1]}"`);
    await finalScreenshot(t, PHONE);
  },
};
