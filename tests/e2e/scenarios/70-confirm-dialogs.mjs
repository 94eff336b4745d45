// Every confirmation says its question, its detail when it has one, and nothing else: resign (two
// players, and the star game of three with its detail), leave for a new game, delete a saved
// game; in Spanish and in English. (The DOM's own `append` writes a missing detail as "null".)
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

const TEXTS = {
  es: {
    resign: '¿Seguro que quieres rendirte?',
    resign3: 'Si te rindes, gana quien tenga sus fichas más cerca del destino.',
    abandon: '¿Dejar esta partida y empezar otra?',
    del: '¿Borrar esta partida?',
    yes: 'Sí',
    no: 'No',
  },
  en: {
    resign: 'Do you really want to resign?',
    resign3: 'If you resign, the player whose pieces are closest to home wins.',
    abandon: 'Leave this game and start another?',
    del: 'Delete this game?',
    yes: 'Yes',
    no: 'No',
  },
};

/** The open confirmation: each text node and element child as shown, in order. */
async function openConfirm(t) {
  await t.driver.wait(() => t.driver.executeScript('const d = document.getElementById("dialog"); return d.open && d.dataset.testid === "confirm"'), 5000, 'the confirmation');
  return t.driver.executeScript(`const d = document.getElementById('dialog');
    const shown = (n) => (n.classList.contains('dialog-actions') ? [...n.children].map((b) => b.textContent.trim()).join('|') : n.textContent.trim());
    return { parts: [...d.childNodes].map((n) => (n.nodeType === 1 ? n.className + ':' + shown(n) : '#text:' + n.textContent)),
             text: d.innerText, detail: d.querySelector('.confirm-detail')?.textContent ?? null };`);
}

function assertConfirm(dialog, question, detail, words, what) {
  assert.doesNotMatch(dialog.text, /\bnull\b|\bundefined\b/, `${what}: no "null" in the dialog: ${JSON.stringify(dialog.parts)}`);
  const expected = [`confirm-text:${question}`];
  if (detail) expected.push(`confirm-detail:${detail}`);
  expected.push(`dialog-actions:${words.no}|${words.yes}`);
  assert.deepEqual(dialog.parts, expected, `${what}: the dialog's parts`);
  assert.equal(dialog.detail, detail, `${what}: the detail`);
}

async function checkLanguage(t, lang) {
  const { ui } = t;
  const w = TEXTS[lang];
  await t.driver.executeScript(`return window.__damas.saveSettings({ language: '${lang}' })`);
  await t.driver.executeScript('window.__damas.go("#/")');
  await ui.waitFor((s) => s.screen === 'home-screen' && s.lang === lang, `the home screen in ${lang}`);

  // Two players: resign asks without a detail.
  await ui.startGame('english', { mode: 'cpu', level: 'easy', colour: 0 });
  const view = await ui.view();
  await ui.playByTaps(view.legal_moves[0], { waitIdle: false });
  await ui.waitIdle();
  await ui.click('resign');
  assertConfirm(await openConfirm(t), w.resign, null, w, `${lang} resign`);
  await ui.click('confirm-no');

  // Leaving for a new game: the question and its detail.
  await ui.click('new-game');
  const abandon = await openConfirm(t);
  assert.ok(abandon.detail, `${lang}: leaving has a detail`);
  assertConfirm(abandon, w.abandon, abandon.detail, w, `${lang} leave`);
  await ui.click('confirm-no');

  // Diamond with three players: resign explains who wins.
  await ui.startGame('diamond', { players: 3, mode: 'cpu', level: 'easy' });
  await ui.click('resign');
  assertConfirm(await openConfirm(t), w.resign, w.resign3, w, `${lang} resign of three`);
  await ui.click('confirm-no');

  // Home: deleting the English game (through the app's router, which waits for the closed
  // dialog's history entry to be dropped).
  await t.driver.executeScript('window.__damas.go("#/")');
  await ui.waitHome();
  await ui.click('delete', `[aria-label*="${lang === 'es' ? 'Damas inglesas' : 'English'}"]`);
  assertConfirm(await openConfirm(t), w.del, null, w, `${lang} delete`);
  await ui.click('confirm-yes');
  await ui.waitFor((s) => !s.savedRows.some((r) => r.game === 'english'), 'the English game deleted');
}

export default {
  name: 'confirm-dialogs',
  title: 'Confirmations show their question and detail only (no "null"), in Spanish and English',
  async run(t) {
    await launchToHome(t);
    await checkLanguage(t, 'es');
    await checkLanguage(t, 'en');
    await finalScreenshot(t, PHONE);
  },
};
