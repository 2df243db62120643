"""Tournaments as a pure decider (standard library and networkx only; no Django): events,
an immutable state folded by ``evolve``, ``decide(state, command)`` returning events, the
three formats' pairings (``pairing``) and the standings with their tie-breaks
(``standings``). The services keep the events in the stream ``tournament:<id>`` and create
the games; see docs/tournaments.md."""
