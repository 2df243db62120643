"""URL routes: the admin, the site pages and the API."""

from django.contrib import admin
from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.health, name="health"),
    path("admin/", admin.site.urls),
]
