"""Routes of the REST API (``/api/``)."""

from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games import bot_ladder_views, bot_streams
from games.api import accounts, bot_api, plans, push, replays, tables, tournaments
from games.ratings import apis as ratings_apis

game = "games/<int:game_id>/"
tournament = "tournaments/<int:tournament_id>/"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file: the CSP allows no inline script.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api_docs.html"),
        name="api-docs",
    ),
    path("token/", accounts.TokenApi.as_view(), name="api-token"),
    path("games/", tables.GameListApi.as_view(), name="api-games"),
    path(game, tables.GameDetailApi.as_view(), name="api-game"),
    path(game + "state/", tables.GameStateApi.as_view(), name="api-game-state"),
    path(game + "events/", replays.GameEventsApi.as_view(), name="api-game-events"),
    path(game + "legal-moves/", tables.LegalMovesApi.as_view(), name="api-game-legal-moves"),
    path(game + "export/", replays.ExportApi.as_view(), name="api-game-export"),
    path(game + "join/", tables.JoinApi.as_view(), name="api-game-join"),
    path(game + "leave/", tables.LeaveApi.as_view(), name="api-game-leave"),
    path(game + "cancel/", tables.CancelApi.as_view(), name="api-game-cancel"),
    path(game + "resign/", tables.ResignApi.as_view(), name="api-game-resign"),
    path(game + "moves/", tables.MoveSubmitApi.as_view(), name="api-game-moves"),
    path(game + "undo/", tables.MoveUndoApi.as_view(), name="api-game-undo"),
    path(game + "grant-day/", tables.GrantDayApi.as_view(), name="api-game-grant-day"),
    path(game + "takebacks/", tables.TakebackRequestApi.as_view(), name="api-game-takebacks"),
    path(
        game + "takebacks/<int:request_id>/answer/",
        tables.TakebackAnswerApi.as_view(),
        name="api-game-takeback-answer",
    ),
    path(game + "plan/", plans.PlanApi.as_view(), name="api-game-plan"),
    path(game + "analysis/", replays.GameAnalysisApi.as_view(), name="api-game-analysis"),
    path("tournaments/", tournaments.TournamentListApi.as_view(), name="api-tournaments"),
    path(tournament, tournaments.TournamentDetailApi.as_view(), name="api-tournament"),
    path(tournament + "join/", tournaments.TournamentJoinApi.as_view(), name="api-tournament-join"),
    path(
        tournament + "withdraw/",
        tournaments.TournamentWithdrawApi.as_view(),
        name="api-tournament-withdraw",
    ),
    path(
        tournament + "start/",
        tournaments.TournamentStartApi.as_view(),
        name="api-tournament-start",
    ),
    *(
        path(tournament + f"{action}/", api.as_view(), name=f"api-tournament-{action}")
        for action, api in (
            ("pause", tournaments.TournamentPauseApi),
            ("resume", tournaments.TournamentResumeApi),
            ("cancel", tournaments.TournamentCancelApi),
        )
    ),
    path("push-subscriptions/", push.PushSubscriptionApi.as_view(), name="api-push-subscriptions"),
    path("data-export/", accounts.DataExportApi.as_view(), name="api-data-export"),
    path(
        "data-export/<int:export_id>/archive/",
        accounts.DataExportArchiveApi.as_view(),
        name="api-data-export-archive",
    ),
    path("players/<int:player_id>/", ratings_apis.PlayerApi.as_view(), name="api-player"),
    path(
        "players/<int:player_id>/ratings/<str:game>/",
        ratings_apis.RatingHistoryApi.as_view(),
        name="api-player-ratings",
    ),
    path("leaderboard/<str:game>/", ratings_apis.LeaderboardApi.as_view(), name="api-leaderboard"),
    path("archive/", ratings_apis.ArchiveApi.as_view(), name="api-archive"),
    path("archive/export/", ratings_apis.ArchiveExportApi.as_view(), name="api-archive-export"),
    path(game + "chat/", bot_api.ChatApi.as_view(), name="api-game-chat"),
    path("account/", bot_api.AccountApi.as_view(), name="api-account"),
    path("bots/", bot_api.BotListApi.as_view(), name="api-bots"),
    path("bot/ladder/<str:game>/", bot_ladder_views.LadderApi.as_view(), name="api-bot-ladder"),
    path("challenges/", bot_api.ChallengeListApi.as_view(), name="api-challenges"),
    *(
        path(
            f"challenges/<int:challenge_id>/{action}/",
            api.as_view(),
            name=f"api-challenge-{action}",
        )
        for action, api in (
            ("accept", bot_api.ChallengeAcceptApi),
            ("decline", bot_api.ChallengeDeclineApi),
            ("cancel", bot_api.ChallengeCancelApi),
        )
    ),
    # Served by the stream process (the proxy sends /api/bot/ there, deploy/).
    path("bot/stream/event", bot_streams.event_stream, name="api-bot-events"),
    path("bot/game/stream/<int:game_id>", bot_streams.game_stream, name="api-bot-game"),
    re_path(r"", accounts.UnknownApi.as_view(), name="api-unknown"),
]
