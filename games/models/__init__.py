"""The app's models, a module per topic: ``games`` (games, seats, clocks, plans, chat,
snapshots), ``notices`` (the deliveries of every channel), ``people`` (players' choices and
data), ``tokens`` (named API tokens), ``results`` (results and ratings), ``analysis``,
``tournaments`` and ``sweeping`` (the minute sweep's items that failed). Django's app
registry, the migrations and the code find them all here."""

from games.models.analysis import AnalysedMove, Analysis
from games.models.bots import (
    BOT_USERNAME_PREFIX,
    BotAccount,
    BotRating,
    Challenge,
    LadderMatch,
    MoveClock,
)
from games.models.games import (
    GAME_STREAM,
    BotLevel,
    ChatMessage,
    Game,
    Plan,
    ProcessBeat,
    Report,
    Seat,
    SeatClock,
    TableSnapshot,
    new_rng_secret,
)
from games.models.notices import (
    Delivery,
    InboundMessage,
    NoticeKind,
    Outbox,
    PushDelivery,
    PushSubscription,
    RefusedAddress,
    new_message_id,
)
from games.models.people import DataExport, PlayerSettings
from games.models.results import GameResult, Rating, RatingChange, RatingLadder, ResultSeat
from games.models.sweeping import SweepFailure
from games.models.tokens import ApiToken
from games.models.tournaments import Tournament, TournamentGame, TournamentSnapshot

__all__ = [
    "BOT_USERNAME_PREFIX",
    "BotAccount",
    "BotRating",
    "LadderMatch",
    "Challenge",
    "MoveClock",
    "AnalysedMove",
    "Analysis",
    "ApiToken",
    "BotLevel",
    "ChatMessage",
    "DataExport",
    "Delivery",
    "GAME_STREAM",
    "Game",
    "GameResult",
    "InboundMessage",
    "NoticeKind",
    "Outbox",
    "Plan",
    "PlayerSettings",
    "ProcessBeat",
    "PushDelivery",
    "PushSubscription",
    "Rating",
    "RatingChange",
    "RatingLadder",
    "RefusedAddress",
    "Report",
    "ResultSeat",
    "Seat",
    "SweepFailure",
    "SeatClock",
    "TableSnapshot",
    "Tournament",
    "TournamentGame",
    "TournamentSnapshot",
    "new_message_id",
    "new_rng_secret",
]
