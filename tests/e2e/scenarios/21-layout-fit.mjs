// Layout fit: the page never scrolls at 390×844 and 360×640 (nor on a
// desktop window); on a phone the piece panel shows whole rows and opening the move list shrinks
// the board, not the panel; the home screen has a heading over cards of one height; the desktop
// panel is not mostly empty; the edge bars pad by the safe-area insets.
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, resize, settled } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

const SMALL = { width: 360, height: 640 };

// What overflows the window, and the panel's and board's boxes (the board's frame: the SVG board
// or the 3D one, on which Diamond opens).
const MEASURE = `
  const de = document.documentElement;
  const box = (s) => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, width: r.width }; };
  const panel = document.querySelector('#app > .screen [data-testid=panel]');
  const buttons = panel ? [...panel.querySelectorAll('.panel-buttons .pbtn')] : [];
  const pr = panel ? panel.getBoundingClientRect() : null;
  // A button row cut by the panel's bottom edge: a button that starts inside it and ends below.
  const cut = pr ? buttons.filter((b) => { const r = b.getBoundingClientRect(); return r.top < pr.bottom - 1 && r.bottom > pr.bottom + 1; }).length : 0;
  return {
    inner: [innerWidth, innerHeight], scroll: [de.scrollWidth, de.scrollHeight], body: [document.body.scrollWidth, document.body.scrollHeight],
    panel: box('#app > .screen [data-testid=panel]'), panelScroll: panel ? [panel.scrollHeight, panel.clientHeight] : null,
    panelContent: panel ? [...panel.children].reduce((h, c) => h + c.getBoundingClientRect().height, 0) : null,
    cut, board: box('#app > .screen .board-wrap'), moves: box('#app > .screen .move-list'),
    actions: box('#app > .screen nav.actions'), h1: box('#app .topbar h1'), topbar: box('#app .topbar'),
  };
`;

async function measure(t) {
  await settled(t.driver);
  return t.driver.executeScript(MEASURE);
}

function assertNoScroll(m, where) {
  assert.ok(m.scroll[1] <= m.inner[1], `${where}: page ${m.scroll[1]} px tall in a ${m.inner[1]} px window`);
  assert.ok(m.scroll[0] <= m.inner[0], `${where}: page ${m.scroll[0]} px wide in a ${m.inner[0]} px window`);
}

export default {
  name: 'layout-fit',
  title: 'No page scroll at 390×844, 360×640 and 1280×800; whole panel rows; move list beside the panel; safe areas',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    // Home: a heading over the game cards, all of one height.
    for (const size of [PHONE, SMALL, DESKTOP]) {
      await resize(t.driver, size);
      const m = await measure(t);
      assertNoScroll(m, `home ${size.width}×${size.height}`);
      const cards = await t.driver.executeScript("return [...document.querySelectorAll('[data-testid=game-card]')].map((e) => e.getBoundingClientRect().height)");
      assert.equal(cards.length, 5);
      assert.ok(Math.max(...cards) - Math.min(...cards) <= 1, `cards of one height at ${size.width}: ${cards}`);
      const heading = await t.driver.executeScript("const h = document.querySelector('[data-testid=games-title]'); const c = document.querySelector('[data-testid=game-card]'); return h && h.tagName === 'H2' && h.getBoundingClientRect().bottom <= c.getBoundingClientRect().top ? h.textContent : null");
      assert.ok(heading, 'a heading over the game cards');
    }
    // Screens at each phone size: setup, rules, settings, and games.
    await resize(t.driver, PHONE);
    for (const [kind, opts] of [['diamond', { players: 3, mode: 'local' }], ['international', { mode: 'cpu', level: 'easy' }]]) {
      await ui.startGame(kind, opts);
      for (const size of [PHONE, SMALL]) {
        await resize(t.driver, size);
        let m = await measure(t);
        assertNoScroll(m, `${kind} ${size.width}×${size.height}`);
        assert.equal(m.cut, 0, `${kind} ${size.width}×${size.height}: a row of panel buttons is cut`);
        assert.ok(m.panelScroll[0] <= m.panelScroll[1] + 1, `${kind} ${size.width}: the panel scrolls inside (${m.panelScroll})`);
        assert.ok(m.board.width > 200, `${kind} ${size.width}: board ${m.board.width} px wide`);
        // Open the move list: the panel keeps its height, the list shows, the board gives way.
        const panelBefore = m.panel.height;
        const boardBefore = m.board.height;
        await t.driver.executeScript("document.querySelector('#app > .screen details.moves').open = true");
        m = await measure(t);
        assertNoScroll(m, `${kind} ${size.width} with the move list open`);
        assert.ok(Math.abs(m.panel.height - panelBefore) <= 1, `${kind} ${size.width}: the panel went from ${panelBefore} to ${m.panel.height} px`);
        const box = await t.driver.executeScript("const r = document.querySelector('#app > .screen details.moves').getBoundingClientRect(); return { top: r.top, bottom: r.bottom, height: r.height }");
        assert.ok(box.height >= 28 && box.bottom <= m.inner[1], `${kind} ${size.width}: the open move list shows (${JSON.stringify(box)})`);
        assert.ok(m.board.height <= boardBefore, 'the board gave way');
        assert.ok(m.board.width > 150, `${kind} ${size.width}: the board still ${m.board.width} px wide`);
        await t.driver.executeScript("document.querySelector('#app > .screen details.moves').open = false");
      }
      // Rules and settings over the game.
      for (const link of ['nav-rules', 'nav-settings']) {
        await ui.click(link);
        await ui.waitFor((x) => x.screen === (link === 'nav-rules' ? 'rules-screen' : 'settings-screen'), link);
        for (const size of [PHONE, SMALL]) {
          await resize(t.driver, size);
          assertNoScroll(await measure(t), `${link} ${size.width}×${size.height}`);
        }
        await ui.click('nav-back');
        await ui.waitFor((x) => x.screen === 'game-screen', 'back to the game');
      }
      await resize(t.driver, PHONE);
    }
    // Setup screen.
    await t.driver.executeScript('location.hash = "#/setup/turkish"');
    await ui.waitFor((x) => x.screen === 'setup-screen', 'the setup screen');
    for (const size of [PHONE, SMALL]) {
      await resize(t.driver, size);
      assertNoScroll(await measure(t), `setup ${size.width}×${size.height}`);
    }
    // Desktop game: the panel is as tall as its buttons; the move list takes the rest.
    await resize(t.driver, DESKTOP);
    await ui.startGame('english', { mode: 'local' });
    let m = await measure(t);
    assertNoScroll(m, 'english 1280×800');
    assert.ok(m.panel.height - m.panelContent < 40, `desktop panel ${m.panel.height} px for ${m.panelContent} px of content`);
    assert.ok(m.moves.height > 200, `the move list fills the column (${m.moves.height} px)`);

    // Safe areas: with a notch and a home indicator the top bar and the action bar move clear.
    const declared = await t.driver.executeScript("return [...document.styleSheets].flatMap((s) => [...s.cssRules]).filter((r) => r.selectorText === ':root').map((r) => r.cssText).join(' ')");
    for (const side of ['top', 'right', 'bottom', 'left']) assert.match(declared, new RegExp(`env\\(safe-area-inset-${side}`), `the ${side} inset is read`);
    await resize(t.driver, PHONE);
    await t.driver.executeScript("const s = document.createElement('style'); s.id = 'notch'; s.textContent = ':root { --safe-top: 47px; --safe-bottom: 34px; }'; document.head.append(s)");
    m = await measure(t);
    assertNoScroll(m, 'phone with insets');
    assert.ok(m.h1.top >= 47, `the title clears the notch (top ${m.h1.top})`);
    assert.ok(m.actions.bottom <= m.inner[1] - 34 + 0.5, `the action bar clears the home indicator (bottom ${m.actions.bottom} of ${m.inner[1]})`);
    await finalScreenshot(t, PHONE, `${t.label}-insets`);
    await t.driver.executeScript("document.getElementById('notch').remove()");
    await finalScreenshot(t, SMALL);
  },
};
