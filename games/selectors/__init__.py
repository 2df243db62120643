"""Reads, one module per topic: callers import the names they use from the module that
defines them. Games and their folded tables are loaded by ``games.repository``. Nothing
here writes.

- ``access``: who may see a game and its chat (players, invited players, moderators,
  visitors), a user's seat.
- ``seats``: a seat at the table now: what its player may do, its clock and time left, its
  plan (conditional moves), a player's hours, the seats that left a game.
- ``lists``: a player's games and turns, open games, games to watch, invitations.
- ``moves``: the legal moves of the seat to move and their ``ETag``; an event's public form.
- ``names``: players and computers as people read them, forgotten players (issue 45), the
  actors the event store names.
- ``history``: the move list and its notes, the events after a seq, the game record.
- ``operations``: the operator's status page (outbox, emails in doubt, background jobs).
- ``analysis``: post-game analysis (issue 15): positions judged, progress, accuracy.
- ``tournaments``: tournaments' lists and pages, who may enter (issue 31).
"""
