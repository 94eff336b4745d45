// Which board a game gets: 3D only for the star games, unless the setting says 2D.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardKindFor } from '../js/boards.js';

test('star games on the 3D board by default, draughts always 2D', () => {
  for (const kind of ['diamond', 'capture']) {
    assert.equal(boardKindFor(kind, '3d'), '3d');
    assert.equal(boardKindFor(kind, undefined), '3d', 'an old settings file without the choice');
    assert.equal(boardKindFor(kind, '2d'), '2d');
  }
  for (const kind of ['english', 'international', 'turkish']) {
    assert.equal(boardKindFor(kind, '3d'), '2d');
  }
});
