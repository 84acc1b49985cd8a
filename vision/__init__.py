"""From camera frames to cards on the table: detection, tracking, assigning cards to piles.

Knows nothing of game rules; card codes are plain strings as RULES.md writes them (``10H``, ``QS``)
plus ``BACK`` for a face-down card.
"""
