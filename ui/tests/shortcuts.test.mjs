// The game screen's keyboard shortcuts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shortcutFor } from '../js/shortcuts.js';

test('shortcuts: undo, redo, flip, rules, new game and review steps', () => {
  const on = (key, extra = {}) => shortcutFor({ key, target: { tagName: 'BODY' }, ...extra });
  assert.equal(on('z', { ctrlKey: true }), 'undo');
  assert.equal(on('Z', { ctrlKey: true, shiftKey: true }), 'redo');
  assert.equal(on('y', { ctrlKey: true }), 'redo');
  assert.equal(on('z', { metaKey: true }), 'undo');
  assert.equal(on('f'), 'flip');
  assert.equal(on('F', { shiftKey: true }), 'flip');
  assert.equal(on('?', { shiftKey: true }), 'rules');
  assert.equal(on('n'), 'new');
  assert.equal(on('ArrowLeft'), 'back');
  assert.equal(on('ArrowRight'), 'forward');
  assert.equal(on('x'), null);
  assert.equal(on('n', { ctrlKey: true }), null, 'Ctrl+N is the system\'s');
  assert.equal(on('f', { altKey: true }), null);
});

test('no shortcut while typing in a field', () => {
  for (const tagName of ['INPUT', 'textarea', 'SELECT']) {
    assert.equal(shortcutFor({ key: 'n', target: { tagName } }), null, tagName);
    assert.equal(shortcutFor({ key: 'z', ctrlKey: true, target: { tagName } }), null, tagName);
  }
  assert.equal(shortcutFor({ key: 'f', target: { tagName: 'DIV', isContentEditable: true } }), null);
});
