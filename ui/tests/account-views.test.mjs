// Accounts in the UI, pure parts (account-views.js): the session out of the address after a
// sign-in by redirect, ratings as shown, and the profile and ranking view models from answers
// shaped as docs/protocol.md gives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  sessionFromFragment, signInUrl, ratingText, changeText, gameFor, profileModel, rankingModel, historyLine, gameOfKind,
} from '../js/account-views.js';

const TOKEN = 'q2Zt0vY5mS1xN8cR4bK7wP3eH6uJ9aL0dF2gI5oT8yU';

test('the session token comes out of the address after a sign-in, and the address is left without it', () => {
  assert.deepEqual(sessionFromFragment('#session=' + TOKEN), { token: TOKEN, hash: '' });
  assert.deepEqual(sessionFromFragment('#/profile&session=' + TOKEN), { token: TOKEN, hash: '#/profile' });
  assert.deepEqual(sessionFromFragment('session=' + TOKEN + '&x=1'), { token: TOKEN, hash: '#x=1' });
  // Not a sign-in: the address stays as it is.
  assert.deepEqual(sessionFromFragment('#/game/abc'), { token: null, hash: '#/game/abc' });
  assert.deepEqual(sessionFromFragment(''), { token: null, hash: '' });
  // A malformed token is dropped from the address too, and never taken.
  assert.deepEqual(sessionFromFragment('#session=<script>'), { token: null, hash: '' });
  assert.deepEqual(sessionFromFragment('#session=%E0%A4%A'), { token: null, hash: '' });
  assert.deepEqual(sessionFromFragment('#session='), { token: null, hash: '' });
});

test('the sign-in starts at the server, for the web or the app, with the nickname as the display name', () => {
  assert.equal(signInUrl('http://127.0.0.1:8080', { displayName: ' Ana M ' }), 'http://127.0.0.1:8080/auth/start?to=web&display_name=Ana+M');
  assert.equal(signInUrl('https://damas.example/', { to: 'app' }), 'https://damas.example/auth/start?to=app');
});

test('ratings are rounded and grouped, with ? while provisional; changes are signed', () => {
  assert.equal(ratingText(1200, true, 'en'), '1,200?');
  assert.equal(ratingText(1219.6, false, 'en'), '1,220');
  assert.equal(ratingText(1180.4, false, 'es'), '1180');
  assert.equal(ratingText(12345, false, 'es'), '12.345');
  assert.equal(changeText(1200, 1220), '+20');
  assert.equal(changeText(1200, 1180), '\u221220');
  assert.equal(changeText(1200, 1200.2), '\u00b10');
});

// Two new accounts, 1,200 each, K = 40: the winner gains 40 × (1 − 0.5) = 20.
const GAME = {
  game_id: 'K7Q2M9XRTDABCDEFGH1J/0', kind: 'english', white: 1, white_name: 'Ana', black: 2, black_name: 'Bea',
  result: 'black_wins', white_before: 1200, white_after: 1180, black_before: 1200, black_after: 1220, finished_ms: 1764561000000,
};

test('a rated game from each side: opponent, result and the rating change', () => {
  const ana = gameFor(GAME, 1);
  assert.equal(ana.opponent, 'Bea');
  assert.equal(ana.result, 'loss');
  assert.equal(ana.change, '\u221220');
  assert.equal(ana.colour, 'white');
  const bea = gameFor(GAME, 2);
  assert.equal(bea.opponent, 'Ana');
  assert.equal(bea.result, 'win');
  assert.equal(bea.change, '+20');
  assert.equal(gameFor({ ...GAME, result: 'draw' }, 2).result, 'draw');
  assert.equal(gameFor(GAME, 3), null);
  assert.equal(gameOfKind('diamond2'), 'diamond');
});

test('the profile lists all five kinds in the server order, unplayed ones at 1,200?', () => {
  const me = {
    account: { id: 2, display_name: 'Bea' },
    ratings: [
      { kind: 'english', rating: 1220, games: 1, wins: 1, draws: 0, losses: 0, provisional: true, place: 1 },
    ],
  };
  const model = profileModel(me, { games: [GAME] }, { english: { kind: 'english', history: [{ game_id: GAME.game_id, finished_ms: 1, rating: 1220 }] } });
  assert.equal(model.name, 'Bea');
  assert.deepEqual(model.rows.map((r) => r.kind), ['english', 'turkish', 'international', 'diamond2', 'capture2']);
  assert.deepEqual(model.rows.map((r) => r.game), ['english', 'turkish', 'international', 'diamond', 'capture']);
  assert.equal(model.rows[0].text, '1,220?');
  assert.equal(model.rows[0].place, 1);
  assert.deepEqual(model.rows[0].points, [1200, 1220]);
  assert.equal(model.rows[1].text, '1,200?');
  assert.equal(model.rows[1].games, 0);
  assert.deepEqual(model.rows[1].points, []);
  assert.equal(model.recent.length, 1);
  assert.equal(model.recent[0].result, 'win');
});

test('the history line spans the box, highest rating at the top', () => {
  assert.equal(historyLine([1200]), null);
  const line = historyLine([1200, 1220, 1180]);
  assert.equal(line.dots.length, 3);
  assert.equal(line.dots[0].x, 3);
  assert.equal(line.dots[2].x, 197);
  assert.ok(line.dots[1].y < line.dots[0].y && line.dots[0].y < line.dots[2].y);
  assert.ok(line.path.startsWith('M3 '));
  // A small change keeps a range of 60 points: the line does not jump across the box.
  const flat = historyLine([1200, 1210]);
  assert.equal(flat.max - flat.min, 60);
});

test('the ranking marks the player, and shows their place below the top when outside it', () => {
  const top = [
    { place: 1, account: 7, display_name: 'Cai', rating: 1260, games: 25, provisional: false },
    { place: 2, account: 2, display_name: 'Bea', rating: 1220, games: 1, provisional: true },
    { place: 2, account: 9, display_name: 'Dan', rating: 1220, games: 3, provisional: true },
  ];
  const inside = rankingModel({ kind: 'english', top, you: top[1] }, 2);
  assert.deepEqual(inside.rows.map((r) => [r.place, r.name, r.text, r.you]), [[1, 'Cai', '1,260', false], [2, 'Bea', '1,220?', true], [2, 'Dan', '1,220?', false]]);
  assert.equal(inside.youBelow, false);
  const outside = rankingModel({ kind: 'english', top: top.slice(0, 1), you: { place: 14, account: 2, display_name: 'Bea', rating: 1180, games: 2, provisional: true } }, 2);
  assert.equal(outside.youBelow, true);
  assert.equal(outside.you.place, 14);
  assert.equal(outside.you.text, '1,180?');
  const guest = rankingModel({ kind: 'english', top, you: null }, null);
  assert.equal(guest.you, null);
  assert.equal(guest.rows.some((r) => r.you), false);
});
