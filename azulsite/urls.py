"""URL routes: each door keeps its own routes module."""

from django.contrib import admin
from django.urls import include, path

from azulsite import metrics
from games import operator_views, views

urlpatterns = [
    path("healthz", views.health, name="health"),
    path("metrics", metrics.metrics, name="metrics"),
    path("status/", operator_views.status, name="operator-status"),
    path("admin/", admin.site.urls),
    path("api/", include("games.api_urls")),
    path("mail/", include("games.mail.urls")),
    path("", include("games.account_urls")),
    path("", include("games.urls")),
]
