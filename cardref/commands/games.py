"""``cardref games``: list, search, show and export recorded games; rebuild the games index.

::

    cardref games list [--game klondike] [--player anna] [--since 2026-11-01] [--unfinished] [--json]
    cardref games search anna
    cardref games show ID [--corrected] [--json]
    cardref games export ID [--format jsonl|csv] [-o FILE]
    cardref games reindex

The games directory is ``--dir``, else ``$CARDREF_GAMES``, else ``~/.local/share/cardref/games``.
Exit codes: 0 done, 1 no such game, 2 bad arguments (argparse).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ..gamelog import GameLog, GameStore, Record


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("games", help="list, search, show and export recorded games")
    p.add_argument("--dir", metavar="DIR", help="the games directory (default: $CARDREF_GAMES or ~/.local/share/cardref/games)")
    sub = p.add_subparsers(dest="games_command", required=True, metavar="ACTION")

    for name, helptext in (("list", "list games, newest first"), ("search", "games whose id, game, rules, result or a player contains TEXT")):
        q = sub.add_parser(name, help=helptext)
        if name == "search":
            q.add_argument("text", help="text to look for (case-insensitive)")
        q.add_argument("--game", help="only this game (klondike, stress, zenuwen ...)")
        q.add_argument("--player", help="only games with this player (exact name, case-insensitive)")
        q.add_argument("--since", metavar="DATE", help="started on or after (UTC; YYYY-MM-DD or an ISO time)")
        q.add_argument("--until", metavar="DATE", help="started on or before (UTC; a date includes the whole day)")
        done = q.add_mutually_exclusive_group()
        done.add_argument("--finished", dest="finished", action="store_const", const=True, help="only ended games")
        done.add_argument("--unfinished", dest="finished", action="store_const", const=False, help="only games that never ended (e.g. crashed)")
        q.add_argument("--limit", type=int, help="at most this many")
        q.add_argument("--json", action="store_true", help="one JSON object per line")

    q = sub.add_parser("show", help="print one game: header, records, damaged lines")
    q.add_argument("id")
    q.add_argument("--corrected", action="store_true", help="the game as corrected instead of the raw records")
    q.add_argument("--json", action="store_true", help="the normalised JSONL log")

    q = sub.add_parser("export", help="export one game as JSONL (the documented log format) or CSV")
    q.add_argument("id")
    q.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    q.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")

    sub.add_parser("reindex", help="rebuild the SQLite index from the game logs")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from ..gamelog import GameStore

    store = GameStore(args.dir)
    action = args.games_command
    if action in ("list", "search"):
        return _list(store, args, sys.stdout)
    if action == "reindex":
        count = store.rebuild_index()
        print(f"indexed {count} game{'s' if count != 1 else ''} in {store.root}")
        return 0
    try:
        log = store.read(args.id)
    except (FileNotFoundError, ValueError):
        print(f"cardref games: no game {args.id!r} in {store.root}", file=sys.stderr)
        return 1
    if action == "show":
        return _show(log, args, sys.stdout)
    return _export(log, args)


def _list(store: "GameStore", args: argparse.Namespace, out: TextIO) -> int:
    try:
        found = store.games(
            game=args.game,
            player=args.player,
            text=getattr(args, "text", None),
            since=args.since,
            until=args.until,
            finished=args.finished,
            limit=args.limit,
        )
    except ValueError as exc:
        print(f"cardref games: {exc}", file=sys.stderr)
        return 2
    for g in found:
        if args.json:
            out.write(json.dumps(g.to_json(), ensure_ascii=False) + "\n")
            continue
        state = (g.result or "ended") if g.finished else "unfinished"
        counts = f"{g.moves} moves, {g.illegal} illegal, {g.calls} calls"
        if g.unrecognised:
            counts += f", {g.unrecognised} unrecognised"
        if g.corrections:
            counts += f", {g.corrections} corrections"
        if g.errors:
            counts += f", {g.errors} damaged lines"
        out.write(f"{g.id}  {g.started[:16].replace('T', ' ')}  {g.game}  {', '.join(g.players) or '-'}  [{state}]  {counts}\n")
    if not found and not args.json:
        print("no games found", file=sys.stderr)
    return 0


def _show(log: "GameLog", args: argparse.Namespace, out: TextIO) -> int:
    from ..gamelog.export import write_jsonl

    if args.json:
        write_jsonl(log, out)
        return 0
    h = log.header
    if h is not None:
        out.write(f"{h.id}: {h.game} ({h.rules or 'default rules'}), players {', '.join(h.players) or '-'}, started {h.started}\n")
    if args.corrected:
        for entry in log.effective():
            mark = ""
            if entry.correction is not None:
                c = entry.correction.correction
                was = f" was {_describe(entry.original)}" if entry.original is not None else " (missed by the referee)"
                mark = f"   <- corrected by #{entry.correction.seq}{was}" + (f" ({c.reason})" if c.reason else "")
            out.write(f"{_line(entry.record)}{mark}\n")
    else:
        for r in log.records:
            mark = f"   [corrected by {', '.join('#' + str(s) for s in r.corrected_by)}]" if r.corrected_by else ""
            out.write(f"{_line(r)}{mark}\n")
    for err in log.errors:
        out.write(f"! {err}\n")
    return 0


def _line(r: "Record") -> str:
    frame = f"  [{r.frame}]" if r.frame else ""
    return f"#{r.seq:<4} {r.t:9.2f}s  {r.kind.value:<12} {_describe(r)}{frame}"


def _describe(r: "Record") -> str:
    d = r.data
    kind = r.kind.value
    if kind == "move":
        delta = d.get("score_delta", 0)
        return f"{d.get('text', '')}" + (f" ({delta:+})" if isinstance(delta, int) and delta else "")
    if kind == "illegal":
        return f"{d.get('text', '')}: {d.get('rule', '')}: {d.get('reason', '')}"
    if kind == "call":
        return str(d.get("type", ""))
    if kind == "unrecognised":
        return str(d.get("detail", ""))
    if kind == "note":
        return str(d.get("text", ""))
    if kind == "end":
        return str(d.get("result", "")) + (f": {d['reason']}" if d.get("reason") else "")
    if kind == "correction":
        target = f"#{r.target}"
        inner = d.get("data")
        inner = inner if isinstance(inner, dict) else {}
        what = inner.get("text") or inner.get("type") or inner.get("detail") or ""
        return f"{d.get('action')} {target}" + (f" with {d.get('kind')} {what}".rstrip() if d.get("kind") else "") + (
            f" ({d['reason']})" if d.get("reason") else ""
        )
    if kind == "resumed":
        return f"after #{d.get('after')}, dropped {d.get('dropped_bytes', 0)} bytes"
    return json.dumps(d, ensure_ascii=False)


def _export(log: "GameLog", args: argparse.Namespace) -> int:
    from ..gamelog.export import EXPORTERS

    write = EXPORTERS[args.format]
    if args.output:
        with open(args.output, "w", encoding="utf-8", newline="") as fh:
            write(log, fh)
    else:
        write(log, sys.stdout)
    return 0
