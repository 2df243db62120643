"""Ratings, player profiles and the game archive (issue 16): reads and doors. The writer is
``games.services.ratings``; the rows are projections in ``games.models``."""
