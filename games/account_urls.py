"""Routes of signing in and out, and of one's account (settings, the download of one's
data, API tokens)."""

from django.urls import path

from games import account_views, bot_account_views, closing_views

urlpatterns = [
    path("signin/", account_views.sign_in, name="sign-in"),
    path("signin/link/", account_views.sign_in_link, name="sign-in-link"),
    path("signin/password/", account_views.sign_in_password, name="sign-in-password"),
    path("signout/", account_views.sign_out, name="sign-out"),
    path("account/", account_views.account, name="account"),
    path("account/data/", account_views.data_export_request, name="data-export"),
    path(
        "account/data/progress/",
        account_views.data_export_progress,
        name="data-export-progress",
    ),
    path(
        "account/data/<int:export_id>/download/",
        account_views.data_export_download,
        name="data-export-download",
    ),
    path("account/tokens/", account_views.api_token_new, name="api-token-new"),
    path(
        "account/tokens/<int:token_id>/revoke/",
        account_views.api_token_revoked,
        name="api-token-revoke",
    ),
    path("account/bots/", bot_account_views.bots_page, name="bots"),
    path("account/bots/new/", bot_account_views.bot_new, name="bot-new"),
    *(
        path(f"account/bots/<int:bot_id>/{action}/", view, name=f"bot-{action}")
        for action, view in (
            ("change", bot_account_views.bot_changed),
            ("pause", bot_account_views.bot_paused),
            ("delete", bot_account_views.bot_deleted),
            ("tokens", bot_account_views.bot_token_new),
        )
    ),
    path(
        "account/bots/<int:bot_id>/tokens/<int:token_id>/revoke/",
        bot_account_views.bot_token_revoked,
        name="bot-token-revoke",
    ),
    path("account/close/", closing_views.account_close_page, name="account-close"),
    path("language/", account_views.language_set, name="language-set"),
]
