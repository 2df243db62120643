"""The only writers (``docs/architecture.md``), one module per sub-domain. Every service is
one transaction: lock the game row, fold its stream, decide, append, and run the reactions
(the read model, ratings, the notices…). Doors (API, pages, email, tasks, admin) validate
input and call one of these, imported from the module that defines it
(``from games.services.tables import game_create``).

- ``tables``: open, join, leave, cancel a table; start a game; rebuild the read model.
- ``moves``: moves, undo, takebacks, resignation, a player's "+1 day".
- ``deadlines``: timeouts and vacations (clocks that run out or stop).
- ``moderation``: moderators' acts on games and users, reports.
- ``accounts``: signing in by email.
- ``chat``: the game's chat and players' reports.
- ``operations``: when the background jobs last ran (the operator's status page).
- ``rematch``: the same players at a new table; ``invitations``: declining one.
- ``ratings``: results of finished games and the players' ratings (a projection).
- ``bots``: computer players' moves (bot seats, the timeout policy ``bot``).
- ``plans``: conditional moves, a seat's private plan (stored, deleted, its moves played);
  ``plan_following``: the reaction that trims and drops plans after every write.
- ``analysis``: the hard computer player's judgement of a finished game's moves.
- ``push``: a player's devices for Web Push, and pushing one notice.
- ``notices``: the notices the clock causes (reminders, warnings, digests), and each
  player's choice of channels; who is told what is ``games.notify``'s.
- ``tournaments``: a package by job (``entry``, ``organiser``, ``rounds``, ``results``),
  all through its own write path (``stream``) and reactions (issue 31).
- ``sweep``: the minute sweep, every periodic job in order (``JOBS``).
- ``common``: the write path they share; ``reactions``: the seam after every append (read
  model, ratings, notices…, in one ordered list); ``clocks``: the clock columns.
- ``closing``: closing an account and forgetting its person; ``retention``: rows kept past
  their time; ``data_export``: a person's data; ``drift``: read models checked against
  their events; ``hours``: a player's playing hours.
"""
