#!/usr/bin/env python3
"""Play a game of OpenSpiel's mancala against `kalah serve`, then analyse it.

The client speaks OpenSpiel's numbering: the board's index 0 is the second
player's (North's) store, 1..m the first player's (South's) pits, m+1 South's
store, m+2..2m+1 North's pits, and an action is the index of the pit sown
(OpenSpiel's own game is m = 6, Kalah(6,4) under no-empty-capture). It plays
South with seeded random actions; the server plays North at a level of its
computer (GET /api/choose). Once the game is over it sends the actions to
POST /api/analyze?format=openspiel and prints each move's value before and
after, its loss and class, and each side's total loss and accuracy.

Standard library only. Usage:

    kalah serve &
    python3 examples/openspiel_client.py --url http://127.0.0.1:8080

Exit status: 0 when the game was played and analysed, 1 on an error of the
server or of the connection (every request has a timeout).
"""

import argparse
import json
import random
import sys
import urllib.error
import urllib.parse
import urllib.request


class ServerError(Exception):
    pass


def request(base, path, query, body=None, timeout=30.0):
    """GET (or POST body) base/path?query and decode the JSON answer."""
    url = base.rstrip("/") + path + "?" + urllib.parse.urlencode(query)
    data = None if body is None else body.encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        try:
            msg = json.load(e).get("error", "")
        except ValueError:
            msg = ""
        raise ServerError(f"{path}: HTTP {e.code}: {msg or e.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as e:
        raise ServerError(f"{path}: {e}") from None


def letter(m, action):
    """The pit letter of an OpenSpiel action on a board of m pits a side."""
    if 1 <= action <= m:
        return chr(ord("a") + action - 1)
    if m + 2 <= action <= 2 * m + 1:
        return chr(ord("A") + action - (m + 2))
    raise ValueError(f"action {action} is no pit")


def action(m, move):
    """The OpenSpiel action of a pit letter."""
    if move.islower():
        return 1 + ord(move) - ord("a")
    return m + 2 + ord(move) - ord("A")


def openspiel_board(m, holes):
    """The server's holes (South's pits, South's store, North's pits,
    North's store) in OpenSpiel's order."""
    return [holes[2 * m + 1]] + holes[: m + 1] + holes[m + 1 : 2 * m + 1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080", help="the server (default %(default)s)")
    ap.add_argument("--pits", type=int, default=6)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--rule", default="no-empty-capture")
    ap.add_argument("--level", default="medium", help="the server's level for North: easy, medium, perfect")
    ap.add_argument("--seed", type=int, default=1, help="seed of South's random actions and of the server's choices")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds each request may take")
    args = ap.parse_args()
    m = args.pits
    game = {"pits": args.pits, "seeds": args.seeds, "rule": args.rule}
    rng = random.Random(args.seed)
    actions = []
    try:
        while True:
            moves = ",".join(letter(m, a) for a in actions)
            line = request(args.url, "/api/line", dict(game, moves=moves), timeout=args.timeout)
            node = line["steps"][-1]["after"] if line["steps"] else line["start"]
            if node["over"]:
                break
            if node["to_move"] == "south":
                a = rng.choice([action(m, mv) for mv in node["moves"]])
                who = "client"
            else:
                ch = request(args.url, "/api/choose", dict(game, moves=moves, level=args.level, seed=args.seed),
                             timeout=args.timeout)
                a = action(m, ch["move"])
                who = "server"
            print(f"ply {len(actions) + 1:3d}  {node['to_move']:5s} ({who})  action {a:2d}  "
                  f"board before {openspiel_board(m, node['holes'])}")
            actions.append(a)
        print(f"game over: final board {openspiel_board(m, node['holes'])}, "
              f"South {node['south_store']}, North {node['north_store']} ({node['winner']})")
        print("actions:", json.dumps(actions))
        an = request(args.url, "/api/analyze", dict(game, format="openspiel"), body=json.dumps(actions),
                     timeout=args.timeout * 4)
    except ServerError as e:
        print(f"openspiel_client: {e}", file=sys.stderr)
        return 1
    if an.get("interrupted"):
        print(f"openspiel_client: the analysis stopped early: {an.get('error')}", file=sys.stderr)
        return 1
    print(f"\nanalysis: value at the start {an['value']:+d} (South's), final margin {an['end']:+d}")
    print(" ply  side   action  move  before  after  best     loss  class")
    for mv in an["moves"]:
        best = ",".join(str(action(m, b)) for b in mv["best"]) or "?"
        print(f"{mv['ply']:4d}  {mv['side']:5s}  {mv['openspiel_action']:6d}  {mv['move']:>4s}  {mv['before']:+6d}  "
              f"{mv['after']:+5d}  {best:7s}  {mv['loss']:4d}  {mv['class']}")
    for side in ("south", "north"):
        s = an[side]
        print(f"{side}: {s['moves']} moves, {s['loss']} seeds lost, accuracy {100 * s['accuracy']:.0f}%")
    # The analysis' own check: the start's value minus the final margin is
    # South's total loss minus North's.
    if not an["bound"] and an["value"] - an["end"] != an["south"]["loss"] - an["north"]["loss"]:
        print("openspiel_client: the losses do not add up to the change of value", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
