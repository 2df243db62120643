"""Routes of the email doors (``/mail/``): preferences, unsubscribe, inbound webhook."""

from django.urls import include, path

from games.mail import views

urlpatterns = [
    path("preferences/", views.preferences, name="mail-preferences"),
    path("preferences/<str:token>/", views.preferences, name="mail-preferences-token"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    path("anymail/", include(views.guarded_webhook_routes())),
]
