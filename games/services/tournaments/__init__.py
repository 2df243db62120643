"""Tournaments (issue 31), one module per job: ``entry`` (opening a tournament,
registering, withdrawing, the entry window closing), ``organiser`` (start, pause, resume,
cancel), ``rounds`` (a paired round's games created after the commit that paired it; a
round's deadline), ``results`` (a tournament game's end recorded). Every write goes
through ``stream.tournament_act``, the same path as a game's: decide, append, evolve,
then the ordered ``reactions.REACTIONS``; ``refusals`` says a refused command in words."""
