// Settings: switch the language to English and back to Spanish; each choice survives a restart.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { By } from 'selenium-webdriver';
import { invoke, PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

// What the home screen says in each language (the name of one game).
const ENGLISH_CHECKERS = { es: 'Damas inglesas', en: 'English checkers' };

async function homeGameName(t) {
  const card = await t.driver.findElement(By.css('[data-testid=game-card][data-game=english] .game-name'));
  return card.getText();
}

async function chooseLanguage(t, lang) {
  const { ui } = t;
  await ui.click('nav-settings');
  await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings screen');
  await ui.click(`lang-${lang}`);
  await ui.waitFor((x) => x.lang === lang, `the page language to become ${lang}`);
  const settings = await invoke(t.driver, 'get_settings');
  assert.equal(settings.language, lang, 'the backend holds the choice');
  // Back (through the last game, if one was open) to the home screen.
  for (let i = 0; i < 3 && (await ui.snapshot()).screen !== 'home-screen'; i++) {
    const from = (await ui.snapshot()).screen;
    await ui.click('nav-back');
    await ui.waitFor((x) => x.ready && x.screen && x.screen !== from, `back from ${from}`);
  }
  await ui.waitHome();
  assert.equal(await homeGameName(t), ENGLISH_CHECKERS[lang], `home screen in ${lang}`);
}

export default {
  name: 'settings-language',
  title: 'Settings: language to English and back, each surviving a restart',
  async run(t) {
    await launchToHome(t);
    const first = await t.ui.snapshot();
    t.log(`language at first start (following the system, LANG=${t.app.lang}): ${first.lang}`);
    // The app runs with LANG=es_ES.UTF-8, a locale scripts/setup generates: without it the
    // system language is not Spanish and this check would prove nothing, so it fails instead.
    const spanishLocale = execFileSync('locale', ['-a'], { encoding: 'utf8' }).split('\n').some((l) => /^es_ES\.utf-?8$/i.test(l));
    assert.ok(spanishLocale, 'the es_ES.UTF-8 locale is missing (`locale -a`); run scripts/setup, which generates it');
    assert.equal(first.lang, 'es', 'the app follows the Spanish system language');
    assert.equal(await homeGameName(t), ENGLISH_CHECKERS[first.lang], 'the texts are in the page language');

    await chooseLanguage(t, 'en');
    // A normal quit and a new start.
    await t.app.close();
    await launchToHome(t);
    let s = await t.ui.snapshot();
    assert.equal(s.lang, 'en', 'English after a restart');
    assert.equal(await homeGameName(t), ENGLISH_CHECKERS.en);
    // A board in English too: the status line and the panel speak it.
    await t.ui.startGame('diamond', { players: 2, mode: 'local' });
    s = await t.ui.snapshot();
    assert.equal(s.lang, 'en');
    assert.match(s.status, /Red/, `status line in English: "${s.status}"`);
    await finalScreenshot(t, PHONE, `${t.label}-en`);

    await chooseLanguage(t, 'es');
    // This time the app is killed: the choice was saved when it was made.
    await t.app.kill();
    await launchToHome(t);
    s = await t.ui.snapshot();
    assert.equal(s.lang, 'es', 'Spanish after a restart');
    assert.equal(await homeGameName(t), ENGLISH_CHECKERS.es);
    assert.equal((await invoke(t.driver, 'get_settings')).language, 'es');
    await finalScreenshot(t, PHONE, `${t.label}-es`);
  },
};
