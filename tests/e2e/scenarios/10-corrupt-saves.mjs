// Bad input: a saved game's file (saves/<id>.json) corrupted on disk — the app starts, says so,
// and the file is set aside (kept, byte for byte), not deleted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DESKTOP } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

const GARBAGE = '{"version": 1, "games": [ {"id": "half a write, then the power went';

function filesUnder(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

export default {
  name: 'corrupt-saves',
  title: 'Bad input: a corrupt saved-game file — the app starts, says so, and sets the file aside',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('english', { mode: 'local' });
    const view = await ui.view();
    await ui.playByTaps(view.legal_moves[0]);
    const id = view.id;
    await t.app.close();

    // The game's own file is the one that holds it.
    const holders = filesUnder(t.app.dataHome).filter((f) => fs.readFileSync(f, 'utf8').includes(id));
    assert.equal(holders.length, 1, `one file in the data directory holds the saved game (${holders.join(', ')})`);
    const saves = holders[0];
    t.log(`game file: ${path.relative(t.app.home, saves)}`);
    fs.writeFileSync(saves, GARBAGE);
    const others = new Set(filesUnder(t.app.dataHome));

    await launchToHome(t);
    let s = await t.ui.snapshot();
    const notice = s.notices.find((n) => n.code === 'corrupt_game');
    assert.ok(notice, `the home screen says the saved game was unreadable (${JSON.stringify(s.notices)})`);
    assert.ok(notice.text.length > 10, 'with words, not just a code');
    assert.ok(!s.savedRows.some((r) => r.id === id), 'the unreadable game is not listed');

    // Set aside: a new file with the exact bytes; the original path no longer holds them.
    const aside = filesUnder(t.app.dataHome).filter((f) => !others.has(f) && fs.readFileSync(f, 'utf8') === GARBAGE);
    assert.equal(aside.length, 1, 'the corrupt file was kept under a new name');
    t.log(`set aside as: ${path.relative(t.app.home, aside[0])}`);
    assert.equal(path.dirname(aside[0]), path.dirname(saves), 'beside the original');
    assert.ok(!fs.existsSync(saves), 'the corrupt text is no longer where a game is read from');
    await finalScreenshot(t, DESKTOP, `${t.label}-notice`);

    // The app works: a new game is played and saved.
    await t.ui.startGame('english', { mode: 'local' });
    const fresh = await t.ui.view();
    await t.ui.playByTaps(fresh.legal_moves[0]);
    await finalScreenshot(t, DESKTOP, `${t.label}-board`);
    await t.app.close();

    // The notice is shown once; the set-aside file stays.
    await launchToHome(t);
    s = await t.ui.snapshot();
    assert.ok(!s.notices.some((n) => n.code === 'corrupt_game'), 'no notice at the next start');
    assert.ok(s.savedRows.some((r) => r.id === fresh.id && r.ply === 1), 'the new game was saved');
    assert.ok(fs.existsSync(aside[0]), 'the set-aside file is still there');
  },
};
