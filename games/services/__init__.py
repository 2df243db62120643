"""The only writers (``docs/architecture.md``), one module per sub-domain. Every service is
one transaction: lock the game row, fold its stream, decide, append, and run the reactions
(the read model, ratings, the notices…). Doors (API, pages, email, tasks, admin) validate
input and call one of these.

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
- ``tournaments``: creating, joining, starting tournaments; each round's games; a
  tournament game's end moving its tournament on (issue 31).
- ``sweep``: the minute sweep, every periodic job in order.
- ``common``: the write path they share; ``reactions``: the seam after every append (read
  model, ratings, notices…, in one ordered list); ``clocks``: the clock columns.
"""

from games.selectors import MODERATORS_GROUP, is_moderator
from games.services.accounts import (
    SIGN_IN_MAX_AGE,
    account_identity,
    account_sign_in,
    player_preferences_set,
    sign_in_request,
)
from games.services.analysis import (
    analyses_rebuild,
    analyses_sweep,
    analysis_request,
    analysis_run,
)
from games.services.bots import bot_move, bots_sweep
from games.services.chat import CHAT_MAX_LENGTH, chat_post, report_create
from games.services.common import actor_of
from games.services.deadlines import (
    game_timeout,
    timeouts_apply,
    vacation_end,
    vacation_left,
    vacation_start,
    vacations_expire,
)
from games.services.drift import drift_check
from games.services.invitations import invitation_decline
from games.services.moderation import (
    moderate_abort,
    moderate_default_move,
    moderate_extend_deadline,
    moderate_hide_message,
    moderate_pause,
    moderate_replace_seat,
    moderate_replace_seat_bot,
    moderate_resume,
    moderate_revert,
    report_close,
    user_reinstate,
    user_suspend,
)
from games.services.moves import (
    GRANTED_TIME,
    MoveResult,
    deadline_grant,
    game_resign,
    move_submit,
    move_undo,
    seat_resign,
    takeback_answer,
    takeback_request,
)
from games.services.notices import (
    delivery_send,
    digests_queue,
    notices_choose,
    reminders_queue,
    warnings_queue,
)
from games.services.operations import process_beat
from games.services.plans import (
    plan_delete,
    plan_dropped_seen,
    plan_play,
    plan_replace,
    plans_sweep,
)
from games.services.push import push_subscribe, push_unsubscribe
from games.services.ratings import (
    profile_visibility_set,
    ratings_game_finished,
    ratings_game_reopened,
    ratings_rebuild,
)
from games.services.rematch import game_rematch
from games.services.sweep import JOBS as SWEEP_JOBS
from games.services.sweep import sweep
from games.services.tables import (
    INVITATION_SALT,
    INVITATIONS_PER_DAY,
    TIME_CONTROL_DAYS,
    game_cancel,
    game_create,
    game_join,
    game_leave,
    game_reproject,
    invitation_seat,
    invitation_token,
    seat_seen,
    validate_bot_level,
    validate_reminders,
    validate_time_control,
)
from games.services.tournaments import (
    tournament_cancel,
    tournament_create,
    tournament_join,
    tournament_pause,
    tournament_reproject,
    tournament_resume,
    tournament_start,
    tournament_withdraw,
    tournaments_deadlines_apply,
    tournaments_start_due,
)

__all__ = [
    "CHAT_MAX_LENGTH",
    "GRANTED_TIME",
    "INVITATION_SALT",
    "INVITATIONS_PER_DAY",
    "MODERATORS_GROUP",
    "SIGN_IN_MAX_AGE",
    "TIME_CONTROL_DAYS",
    "MoveResult",
    "account_identity",
    "account_sign_in",
    "drift_check",
    "analyses_rebuild",
    "analyses_sweep",
    "analysis_request",
    "analysis_run",
    "player_preferences_set",
    "actor_of",
    "bot_move",
    "bots_sweep",
    "chat_post",
    "deadline_grant",
    "delivery_send",
    "digests_queue",
    "game_cancel",
    "game_create",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_reproject",
    "game_resign",
    "game_timeout",
    "invitation_decline",
    "invitation_seat",
    "invitation_token",
    "is_moderator",
    "moderate_abort",
    "moderate_default_move",
    "moderate_extend_deadline",
    "moderate_hide_message",
    "moderate_pause",
    "moderate_replace_seat",
    "moderate_replace_seat_bot",
    "moderate_resume",
    "moderate_revert",
    "move_submit",
    "move_undo",
    "notices_choose",
    "plan_delete",
    "plan_dropped_seen",
    "plan_play",
    "plan_replace",
    "plans_sweep",
    "process_beat",
    "push_subscribe",
    "push_unsubscribe",
    "profile_visibility_set",
    "ratings_game_finished",
    "ratings_game_reopened",
    "ratings_rebuild",
    "reminders_queue",
    "report_close",
    "report_create",
    "seat_resign",
    "seat_seen",
    "sign_in_request",
    "SWEEP_JOBS",
    "sweep",
    "takeback_answer",
    "takeback_request",
    "timeouts_apply",
    "tournament_cancel",
    "tournament_create",
    "tournament_join",
    "tournament_pause",
    "tournament_reproject",
    "tournament_resume",
    "tournament_start",
    "tournament_withdraw",
    "tournaments_deadlines_apply",
    "tournaments_start_due",
    "user_reinstate",
    "user_suspend",
    "validate_bot_level",
    "validate_reminders",
    "validate_time_control",
    "vacation_end",
    "vacation_left",
    "vacation_start",
    "warnings_queue",
    "vacations_expire",
]
