"""Routes of the email doors (``/mail/``): preferences, unsubscribe, inbound webhook."""

urlpatterns: list = []
