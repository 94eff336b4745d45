#!/usr/bin/env python3
"""Whole International draughts games over DamExchange: pydraughts' DXP client (the initiator)
against `damas dxp` (the follower, on a free loopback port), the other side played by
`damas hub` through pydraughts' Hub client.

Every move received over DXP must be one of pydraughts' legal moves (its client matches the
message against them), the legal move lists of pydraughts and of `damas moves` must agree before
every move, and the game ends when pydraughts says it is over. Exits non-zero at the first
disagreement or when an answer does not come within the time limit.

Usage: play_games.py DAMAS_BINARY [--games N]
"""

import argparse
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hub"))
from play_games import BLACK, WHITE, damas_moves, key_of_hub, start_engine  # noqa: E402

import draughts  # noqa: E402
from draughts.engine import DXPEngine, Limit  # noqa: E402

# The longest one DXP answer may take (medium thinks well under a second; this bounds a hang).
ANSWER_LIMIT = 120


def start_follower(damas):
    """`damas dxp` on a free port; its first line says where it listens."""
    process = subprocess.Popen(
        [damas, "dxp", "--port", "0", "--level", "medium"],
        stdout=subprocess.PIPE, text=True,
    )
    line = process.stdout.readline().strip()
    if not line.startswith("listening on 127.0.0.1:"):
        process.kill()
        raise AssertionError(f"damas dxp did not start: {line!r}")
    return process, int(line.rsplit(":", 1)[1])


def dxp_move(engine, board):
    """The follower's answer, or an error when none comes in time."""
    answer = {}
    worker = threading.Thread(target=lambda: answer.update(result=engine.play(board)), daemon=True)
    worker.start()
    worker.join(ANSWER_LIMIT)
    if "result" not in answer or answer["result"].move is None:
        raise AssertionError(f"no legal DXP move within {ANSWER_LIMIT} s at {board.fen}")
    return answer["result"].move


def play_game(damas, port, number, follower_colour):
    hub = start_engine(damas, "easy")
    dxp = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port})
    board = draughts.Board(variant="standard")
    try:
        while not board.is_over():
            if len(board.move_stack) >= 600:
                raise AssertionError(f"game {number}: not over after 600 plies")
            legal = {key_of_hub(move.hub_move): move for move in board.legal_moves()}
            theirs = damas_moves(damas, board.fen)
            if set(legal) != theirs:
                raise AssertionError(f"game {number}: legal moves differ at {board.fen}")
            if board.turn == follower_colour:
                move = dxp_move(dxp, board)
            else:
                move = hub.play(board, Limit(movetime=0.5), ponder=False).move
            key = key_of_hub(move.hub_move)
            if key not in legal:
                raise AssertionError(f"game {number}: illegal {move.hub_move} at {board.fen}")
            board.push(legal[key])
        outcome = {WHITE: "1-0", BLACK: "0-1", 0: "1/2-1/2"}[board.winner()]
        colour = "white" if follower_colour == WHITE else "black"
        print(f"game {number}: damas dxp (medium, {colour}) vs damas hub (easy): {outcome} in {len(board.move_stack)} plies")
        return len(board.move_stack)
    finally:
        hub.quit()
        hub.p.communicate(timeout=30)
        dxp.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("damas")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    follower, port = start_follower(args.damas)
    try:
        plies = 0
        for number in range(args.games):
            colour = BLACK if number % 2 == 0 else WHITE
            plies += play_game(args.damas, port, number + 1, colour)
        print(f"{args.games} games, {plies} plies over DXP, every move legal for pydraughts and Damas")
    finally:
        follower.terminate()
        follower.wait(timeout=30)
        follower.stdout.close()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"play_games.py: {error}", file=sys.stderr)
        os._exit(1)
