// Sharing a game: the export dialog (PDN for draughts, the record text for the star games; copy
// or save to a file) and the import dialog (paste or open a file, then replay or play on against
// the CPU or on this device). The texts are made and read by the backend only.

import { api } from '../api.js';
import { h, clear, add, choiceGroup } from '../dom.js';
import { t } from '../i18n.js';
import { levelOptions } from '../levels.js';
import { importProblemText } from '../game-record.js';
import { savedNickname } from '../nickname.js';

function openDialog(app, className, testid, ...children) {
  const d = app.dialog;
  clear(d);
  d.className = className;
  d.onclose = null;
  d.setAttribute('data-testid', testid);
  add(d, ...children);
  app.openModal();
  return d;
}

/** Copies `text`: the clipboard API, else the selected text area's copy command. */
async function copyText(text, area) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    area.select();
    try { return document.execCommand('copy'); } catch { return false; }
  }
}

/** The export dialog of game `id`. */
export async function showExport(app, id) {
  let exported;
  try {
    exported = await api.exportGame(id, savedNickname() || null);
  } catch (e) {
    app.toast(app.errorText(e));
    return;
  }
  const area = h('textarea', { class: 'share-text', 'data-testid': 'export-text', readonly: true, rows: 8, 'aria-label': t('share.text') }, exported.text);
  const said = h('p', { class: 'share-said', 'data-testid': 'export-said', role: 'status' });
  const d = openDialog(app, 'share', 'export-dialog',
    h('h2', {}, t('share.title')),
    h('p', { class: 'share-file' }, exported.file_name),
    area, said,
    h('div', { class: 'dialog-actions' },
      h('button', { type: 'button', class: 'btn', 'data-testid': 'export-close', onclick: () => d.close() }, t('share.close')),
      // Phones: the system's share sheet, where the web view offers it.
      typeof navigator.share === 'function' ? h('button', {
        type: 'button', class: 'btn', 'data-testid': 'export-share',
        onclick: () => navigator.share({ title: exported.file_name, text: exported.text }).catch(() => {}),
      }, t('share.sheet')) : null,
      h('button', {
        type: 'button', class: 'btn', 'data-testid': 'export-save',
        onclick: async () => {
          try {
            const path = await api.saveExport(id, savedNickname() || null);
            said.textContent = t('share.saved', { path });
            said.dataset.path = path;
          } catch (e) { said.textContent = app.errorText(e); }
        },
      }, t('share.save')),
      h('button', {
        type: 'button', class: 'btn btn-primary', 'data-testid': 'export-copy', autofocus: true,
        onclick: async () => { said.textContent = (await copyText(exported.text, area)) ? t('share.copied') : t('share.nocopy'); },
      }, t('share.copy'))));
}

/** The import dialog; a game read goes to its screen (at its start when only replayed). */
export function showImport(app) {
  let mode = 'local';
  let level = 'medium';
  const area = h('textarea', { class: 'share-text', 'data-testid': 'import-text', rows: 8, 'aria-label': t('import.paste'), placeholder: '[GameType "21"]\n1. 11-15 23-19 …' });
  const file = h('input', {
    type: 'file', accept: '.pdn,.txt,text/plain', 'data-testid': 'import-file', 'aria-label': t('import.file'),
    onchange: async () => { const f = file.files && file.files[0]; if (f) area.value = await f.text(); },
  });
  const problem = h('p', { class: 'share-problem', 'data-testid': 'import-error', role: 'alert', hidden: true });
  const levels = choiceGroup({
    label: t('setup.level'), testid: 'import-level', value: level,
    options: levelOptions(t),
    onChange: (v) => { level = v; },
  });
  levels.hidden = true;
  const modes = choiceGroup({
    label: t('import.how'), testid: 'import-mode', value: 'review',
    options: [
      { value: 'review', label: t('import.replay') },
      { value: 'local', label: t('import.local') },
      { value: 'cpu', label: t('import.cpu') },
    ],
    onChange: (v) => { mode = v; levels.hidden = v !== 'cpu'; },
  });
  mode = 'review';
  const d = openDialog(app, 'share', 'import-dialog',
    h('h2', {}, t('import.title')),
    h('label', { class: 'share-label' }, t('import.paste')), area,
    h('label', { class: 'share-label' }, t('import.file'), ' ', file),
    modes, levels, problem,
    h('div', { class: 'dialog-actions' },
      h('button', { type: 'button', class: 'btn', 'data-testid': 'import-cancel', onclick: () => d.close() }, t('import.cancel')),
      h('button', {
        type: 'button', class: 'btn btn-primary', 'data-testid': 'import-go',
        onclick: async () => {
          const setup = mode === 'cpu' ? { mode: 'cpu', level } : { mode: 'local' };
          try {
            const view = await api.importGame(area.value, setup);
            d.close();
            app.pendingView = view;
            app.go('#/game/' + view.id + (mode === 'review' ? '?review=0' : ''));
          } catch (e) {
            problem.hidden = false;
            problem.textContent = importProblemText(e) ?? app.errorText(e);
          }
        },
      }, t('import.go'))));
  area.focus();
}
