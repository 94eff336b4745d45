// The `damas` command-line tool: the engine's own answer, independent of the app and its UI.
import { execFileSync } from 'node:child_process';

export class Cli {
  constructor(binary) {
    this.binary = binary;
  }

  /** Runs `damas ...args` and returns its standard output (throws on a non-zero exit). */
  run(...args) {
    return execFileSync(this.binary, args.map(String), { encoding: 'utf8', timeout: 60000 });
  }

  static gameArgs(kind, { players, longJump, position, after = [] } = {}) {
    const args = [kind];
    if (players != null) args.push('--players', players);
    if (longJump) args.push('--long-jump');
    if (position != null) args.push('--position', position);
    if (after.length) args.push('--after', after.join(' '));
    return args;
  }

  /** `damas moves`: the legal moves, one JSON object a line. */
  moves(kind, opts = {}) {
    return this.run('moves', ...Cli.gameArgs(kind, opts))
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
  }

  /** `damas status`: the game's state as one JSON object. */
  status(kind, opts = {}) {
    return JSON.parse(this.run('status', ...Cli.gameArgs(kind, opts)));
  }
}

/**
 * The pieces of a draughts FEN ("W:W21,22,K30:B1,2") as {cell, seat, king}. `whiteSeat` is the
 * seat that plays white: 1 in English checkers (Black moves first), 0 in the other two.
 */
export function fenPieces(fen, whiteSeat) {
  const out = [];
  for (const part of fen.split(':').slice(1)) {
    const colour = part[0];
    const seat = colour === 'W' ? whiteSeat : 1 - whiteSeat;
    for (const token of part.slice(1).split(',').filter(Boolean)) {
      const king = token.startsWith('K');
      out.push({ cell: king ? token.slice(1) : token, seat, king });
    }
  }
  return out;
}
