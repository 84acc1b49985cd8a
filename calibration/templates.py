"""Zone templates: where each game's piles lie, for each player count (RULES.md K2/K3/K16/K17, S2/S4, Z2/Z4/Z5).

Templates are built in table mm with the play area's top-left corner at ``(0, 0)`` and player 1 sitting
below it (at large ``y``). Other seats go round the table clockwise as seen from above: 2 on player 1's
left, 3 opposite, 4 on the right (two players: opposite each other). :func:`template_size` tells how
large the play area is (for laying the ``corners`` markers). Every template can be adjusted: pass
other card sizes and gaps, or move it with :meth:`ZoneLayout.moved`, or edit the zones in the
calibration file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from calibration.zones import Zone, ZoneLayout

GAMES = ("klondike", "stress", "zenuwen")


@dataclass(frozen=True)
class Spacing:
    """Card size and the room around a pile, mm. Poker-size cards (63 x 88) by default."""

    card_w: float = 63.0
    card_h: float = 88.0
    gap: float = 17.0
    fan_len: float = 480.0

    @property
    def pitch_x(self) -> float:
        return self.card_w + self.gap

    @property
    def pitch_y(self) -> float:
        return self.card_h + self.gap


def _place(zones: list[Zone], turn_deg: float, x0: float, y0: float) -> list[Zone]:
    """Turn a block of zones about the origin, then shift it so its bounds start at ``(x0, y0)``."""
    turned = [z.moved(0.0, 0.0, turn_deg) for z in zones]
    xs = [p[0] for z in turned for p in z.polygon_mm]
    ys = [p[1] for z in turned for p in z.polygon_mm]
    return [z.moved(x0 - min(xs), y0 - min(ys)) for z in turned]


def _prefixed(zones: list[Zone], seat: int) -> list[Zone]:
    from dataclasses import replace

    return [replace(z, name=f"p{seat}.{z.name}", seat=seat) for z in zones]


def _klondike_block(columns: int, sp: Spacing, foundations: bool) -> list[Zone]:
    """One player's Klondike: stock, waste (fanned right for draw 3), [foundations], tableau fanned down."""
    px, py = sp.pitch_x, sp.pitch_y
    waste_span = max(1, columns - 5)
    zones = [
        Zone.rect("stock", "stock", 0, 0, px, py),
        Zone.rect("waste", "waste", px, 0, px * waste_span, py, fan=(1.0, 0.0)),
    ]
    if foundations:
        for i in range(4):
            zones.append(Zone.rect(f"foundation{i + 1}", "foundation", (columns - 4 + i) * px, 0, px, py))
    for i in range(columns):
        zones.append(Zone.rect(f"tableau{i + 1}", "tableau", i * px, py, px, sp.fan_len, fan=(0.0, 1.0)))
    return zones


def klondike(players: int = 1, columns: int = 7, sp: Spacing = Spacing()) -> ZoneLayout:
    """K2/K3 (7 columns), K16 (8 columns); two players: K17 Double Solitaire, eight shared foundations
    in a row between the two seven-column layouts."""
    if columns not in (7, 8):
        raise ValueError(f"klondike has 7 or 8 columns (K2, K16), got {columns}")
    if players == 1:
        return ZoneLayout("klondike", 1, tuple(_klondike_block(columns, sp, foundations=True)))
    if players != 2:
        raise ValueError(f"klondike is for one player, or two (Double Solitaire, K17); got {players}")
    block = _klondike_block(columns, sp, foundations=False)
    block_w = columns * sp.pitch_x
    block_h = sp.pitch_y + sp.fan_len
    row_w = 8 * sp.pitch_x
    width = max(block_w, row_w)
    bx = (width - block_w) / 2.0
    top = _prefixed(_place(block, 180.0, bx, 0.0), 2)
    fx = (width - row_w) / 2.0
    middle = [Zone.rect(f"foundation{i + 1}", "foundation", fx + i * sp.pitch_x, block_h, sp.pitch_x, sp.pitch_y)
              for i in range(8)]
    bottom = _prefixed(_place(block, 0.0, bx, block_h + sp.pitch_y), 1)
    return ZoneLayout("klondike", 2, tuple(top + middle + bottom))


def _row_block(piles: int, sp: Spacing) -> list[Zone]:
    """A seat's row of squared piles with the stock at its right end."""
    zones = [Zone.rect(f"pile{i + 1}", "pile", i * sp.pitch_x, 0, sp.pitch_x, sp.pitch_y) for i in range(piles)]
    zones.append(Zone.rect("stock", "stock", piles * sp.pitch_x, 0, sp.pitch_x, sp.pitch_y))
    return zones


def _centre_row(count: int, x_mid: float, y0: float, sp: Spacing) -> list[Zone]:
    x0 = x_mid - count * sp.pitch_x / 2.0
    return [Zone.rect(f"centre{i + 1}", "centre", x0 + i * sp.pitch_x, y0, sp.pitch_x, sp.pitch_y)
            for i in range(count)]


def _seated(piles: int, players: int, game: str, sp: Spacing) -> ZoneLayout:
    block = _row_block(piles, sp)
    row_w = (piles + 1) * sp.pitch_x
    depth = sp.pitch_y
    if players == 2:
        zones = _prefixed(_place(block, 180.0, 0.0, 0.0), 2)
        zones += _centre_row(2, row_w / 2.0, depth, sp)
        zones += _prefixed(_place(block, 0.0, 0.0, 2 * depth), 1)
        return ZoneLayout(game, 2, tuple(zones))
    side = row_w + 2 * depth
    seats = {
        1: (0.0, depth, side - depth),  # bottom, facing up
        2: (90.0, 0.0, depth),  # left
        3: (180.0, depth, 0.0),  # opposite
        4: (-90.0, side - depth, depth),  # right
    }
    zones = _centre_row(players, side / 2.0, side / 2.0 - depth / 2.0, sp)
    for seat in range(1, players + 1):
        turn, x0, y0 = seats[seat]
        zones += _prefixed(_place(block, turn, x0, y0), seat)
    return ZoneLayout(game, players, tuple(zones))


def stress(players: int = 2, sp: Spacing = Spacing()) -> ZoneLayout:
    """S1/S2/S4: two players, each a row of four piles and a stock; two centre piles between them."""
    if players != 2:
        raise ValueError(f"stress is for two players (S1), got {players}")
    return _seated(4, 2, "stress", sp)


def zenuwen(players: int = 2, sp: Spacing = Spacing()) -> ZoneLayout:
    """Z2/Z4/Z5: 2-4 seats, each five piles and a stock; one centre pile per player in the middle."""
    if not 2 <= players <= 4:
        raise ValueError(f"zenuwen is for 2 to 4 players (Z1), got {players}")
    return _seated(5, players, "zenuwen", sp)


def template(game: str, players: int | None = None, columns: int = 7, sp: Spacing = Spacing()) -> ZoneLayout:
    """The zone template for a game by name (``klondike``, ``stress``, ``zenuwen``)."""
    makers: dict[str, Callable[[], ZoneLayout]] = {
        "klondike": lambda: klondike(players or 1, columns, sp),
        "stress": lambda: stress(players or 2, sp),
        "zenuwen": lambda: zenuwen(players or 2, sp),
    }
    if game not in makers:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    return makers[game]()


def template_size(layout: ZoneLayout) -> tuple[float, float]:
    """Width and height of the play area a layout needs, mm (for the ``corners`` markers)."""
    x0, y0, x1, y1 = layout.bounds_mm()
    return (x1 - min(x0, 0.0), y1 - min(y0, 0.0))
