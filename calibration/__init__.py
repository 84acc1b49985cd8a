"""The table: camera-to-table geometry and where each game's piles lie."""
