"""Routes of the site's pages."""

from django.templatetags.static import static
from django.urls import path
from django.views.generic import RedirectView

from games import app_views, bot_ladder_views, privacy_views, streams, tournament_views, views
from games.ratings import views as ratings_views

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", RedirectView.as_view(url=static("games/favicon.svg"), permanent=True)),
    path("manifest.webmanifest", app_views.manifest, name="manifest"),
    path("sw.js", app_views.service_worker, name="service-worker"),
    path("offline/", app_views.offline, name="offline"),
    path("lobby/", views.lobby, name="lobby"),
    path("games/new/", views.game_new, name="game-new"),
    path("invite/<str:token>/", views.invitation, name="invitation"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/seq", views.game_seq, name="game-seq"),
    path("games/<int:game_id>/live", views.game_live, name="game-live"),
    path("stream/games/<int:game_id>", streams.game_stream, name="game-stream"),
    path("stream/lobby", streams.lobby_stream, name="lobby-stream"),
    path("games/<int:game_id>/rematch/", views.rematch_post, name="game-rematch"),
    path("games/<int:game_id>/move/", views.move_post, name="game-move"),
    path("games/<int:game_id>/undo/", views.undo_post, name="game-undo"),
    path("games/<int:game_id>/plan/", views.plan_post, name="game-plan"),
    path("games/<int:game_id>/plan/board/", views.plan_board, name="game-plan-board"),
    path("games/<int:game_id>/plan/delete/", views.plan_delete_post, name="game-plan-delete"),
    path("games/<int:game_id>/plan/seen/", views.plan_seen_post, name="game-plan-seen"),
    path("games/<int:game_id>/grant-day/", views.grant_day_post, name="game-grant-day"),
    path("games/<int:game_id>/takeback/", views.takeback_request_post, name="game-takeback"),
    path(
        "games/<int:game_id>/takeback/answer/",
        views.takeback_answer_post,
        name="game-takeback-answer",
    ),
    path("games/<int:game_id>/chat/", views.chat_post, name="game-chat"),
    path("games/<int:game_id>/join/", views.join_post, name="game-join"),
    path("games/<int:game_id>/leave/", views.leave_post, name="game-leave"),
    path("games/<int:game_id>/cancel/", views.cancel_post, name="game-cancel"),
    path("games/<int:game_id>/resign/", views.resign, name="game-resign"),
    path("games/<int:game_id>/replay/", views.replay, name="game-replay"),
    path("games/<int:game_id>/text/", views.game_text, name="game-text"),
    path("games/<int:game_id>/analysis/", views.analysis_post, name="game-analysis"),
    path(
        "games/<int:game_id>/analysis/progress",
        views.analysis_progress,
        name="game-analysis-progress",
    ),
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_views.tournament_new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tournament_views.tournament_page, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/join/",
        tournament_views.join_post,
        name="tournament-join",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournament_views.withdraw_post,
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<int:tournament_id>/remove/",
        tournament_views.remove_post,
        name="tournament-remove",
    ),
    path(
        "tournaments/<int:tournament_id>/start/",
        tournament_views.start_post,
        name="tournament-start",
    ),
    *(
        path(f"tournaments/<int:tournament_id>/{action}/", view, name=f"tournament-{action}")
        for action, view in (
            ("pause", tournament_views.pause_post),
            ("resume", tournament_views.resume_post),
            ("cancel", tournament_views.cancel_post),
        )
    ),
    path("players/me/", ratings_views.my_profile, name="my-profile"),
    path("players/me/privacy/", ratings_views.privacy_post, name="profile-privacy"),
    path("players/<int:player_id>/", ratings_views.player_page, name="player"),
    path("leaderboard/", ratings_views.leaderboard_page, name="leaderboard"),
    path("leaderboard/<str:game>/", ratings_views.leaderboard_page, name="leaderboard-game"),
    path("bots/ladder/<str:game>/", bot_ladder_views.ladder_page, name="bot-ladder"),
    path("archive/", ratings_views.archive_page, name="archive"),
    path("archive/export/", ratings_views.archive_export, name="archive-export"),
    path("privacy/", privacy_views.privacy_page, name="privacy"),
]
