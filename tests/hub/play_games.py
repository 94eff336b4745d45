#!/usr/bin/env python3
"""Whole International draughts games between two `damas hub` engines, driven by a third-party
Hub client: pydraughts' HubEngine (pinned in scripts/setup).

Every move an engine answers must be one of pydraughts' legal moves; before every move the legal
move lists of pydraughts and of Damas (`damas moves`) must agree. A game ends when pydraughts
says it is over (a side without a move, or one of its draw rules); a decisive end must be the one
Damas sees in the final position. Prints one line per game and exits non-zero at the first
disagreement.

Usage: play_games.py DAMAS_BINARY [--games N] [--max-plies N]
"""

import argparse
import json
import subprocess
import sys

try:
    import draughts
    from draughts.engine import HubEngine, Limit
except ImportError as error:
    sys.exit(f"play_games.py: pydraughts is missing ({error}); run scripts/setup, which installs it with pip")

WHITE = 2  # pydraughts' colour numbers
BLACK = 1

# Seat levels of each game, white first: the games differ, and each level plays both colours.
PAIRINGS = [("easy", "medium"), ("medium", "easy"), ("easy", "easy"), ("medium", "medium")]


def key_of_hub(text):
    """A move's identity from Hub text: start, end and the set of captured squares."""
    capture = "x" in text
    squares = [int(part) for part in text.split("x" if capture else "-")]
    return squares[0], squares[1], tuple(sorted(squares[2:]))


def damas_moves(damas, fen):
    """Damas's legal moves in a position, as identities."""
    run = subprocess.run(
        [damas, "moves", "international", "--fen", fen],
        capture_output=True, text=True, check=False, timeout=60,
    )
    if run.returncode != 0:
        raise AssertionError(f"damas moves refused {fen}: {run.stderr.strip()}")
    keys = set()
    for line in run.stdout.splitlines():
        move = json.loads(line)
        keys.add((int(move["from"]), int(move["to"]), tuple(sorted(int(s) for s in move["captures"]))))
    return keys


def damas_result(damas, fen):
    run = subprocess.run(
        [damas, "status", "international", "--fen", fen],
        capture_output=True, text=True, check=True, timeout=60,
    )
    return json.loads(run.stdout)["result"]


def start_engine(damas, level):
    engine = HubEngine([damas, "hub"])
    if "normal" not in engine.variants or "level" not in engine.options:
        raise AssertionError(f"damas hub declared variants {engine.variants}, options {engine.options}")
    engine.configure({"variant": "normal", "level": level})
    engine.init()
    engine.ping()
    return engine


def play_game(damas, number, levels, max_plies):
    engines = {WHITE: start_engine(damas, levels[0]), BLACK: start_engine(damas, levels[1])}
    board = draughts.Board(variant="standard")
    try:
        while not board.is_over():
            if len(board.move_stack) >= max_plies:
                raise AssertionError(f"game {number}: not over after {max_plies} plies")
            legal = {key_of_hub(move.hub_move): move for move in board.legal_moves()}
            theirs = damas_moves(damas, board.fen)
            if set(legal) != theirs:
                raise AssertionError(
                    f"game {number}, ply {len(board.move_stack) + 1}: legal moves differ at {board.fen}: "
                    f"pydraughts only {sorted(set(legal) - theirs)}, damas only {sorted(theirs - set(legal))}"
                )
            # pydraughts builds its Move from the engine's text and refuses one it cannot match.
            result = engines[board.turn].play(board, Limit(movetime=0.5), ponder=False)
            key = key_of_hub(result.move.hub_move)
            if key not in legal:
                raise AssertionError(f"game {number}: engine played illegal {result.move.hub_move} at {board.fen}")
            board.push(legal[key])
        winner = board.winner()
        if winner in (WHITE, BLACK):
            expected = "white" if winner == WHITE else "black"
            seen = damas_result(damas, board.fen)
            if seen != expected:
                raise AssertionError(f"game {number}: pydraughts says {expected} won, damas says {seen} at {board.fen}")
        outcome = {WHITE: "1-0", BLACK: "0-1", 0: "1/2-1/2"}[winner]
        print(f"game {number}: {levels[0]} (white) vs {levels[1]} (black): {outcome} in {len(board.move_stack)} plies")
        return len(board.move_stack)
    finally:
        for engine in engines.values():
            engine.quit()
            engine.p.communicate(timeout=30)
            if engine.p.returncode != 0:
                raise AssertionError(f"damas hub exited with {engine.p.returncode}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("damas")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--max-plies", type=int, default=600)
    args = parser.parse_args()
    plies = 0
    for number in range(args.games):
        plies += play_game(args.damas, number + 1, PAIRINGS[number % len(PAIRINGS)], args.max_plies)
    print(f"{args.games} games, {plies} plies, every move legal for pydraughts and Damas")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        sys.exit(f"play_games.py: {error}")
