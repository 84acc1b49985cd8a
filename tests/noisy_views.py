"""Views of a speed-game table as a camera spoils them, shared by the Stress and Zenuwen live tests."""

from __future__ import annotations

import random
from dataclasses import replace

from referee.observation import Observation, SeenPile


def held(obs: Observation, rng: random.Random, t: float) -> Observation:
    """A hand over two zones: they keep no judged state."""
    piles = dict(obs.piles)
    for name in rng.sample(sorted(piles), 2):
        piles[name] = SeenPile(held=True)
    return replace(obs, t=t, piles=piles)


def blurred(obs: Observation, rng: random.Random, t: float) -> Observation:
    """Some piles' cards seen but not read."""
    piles = {
        name: SeenPile(tuple(None for _ in pile.cards), pile.backs) if pile.cards and rng.random() < 0.3 else pile
        for name, pile in obs.piles.items()
    }
    return replace(obs, t=t, piles=piles)
