"""Routes of signing in and out."""

from django.urls import path

from games import account_views

urlpatterns = [
    path("signin/", account_views.sign_in, name="sign-in"),
    path("signin/link/", account_views.sign_in_link, name="sign-in-link"),
    path("signin/password/", account_views.sign_in_password, name="sign-in-password"),
    path("signout/", account_views.sign_out, name="sign-out"),
    path("account/", account_views.account, name="account"),
    path("language/", account_views.language_set, name="language-set"),
]
