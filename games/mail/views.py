"""Email doors on the web: the preferences page, unsubscribe (RFC 8058 one-click) and the
inbound webhook of hosted mail providers (django-anymail)."""

from anymail.signals import inbound
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games import services as game_services
from games.errors import ServiceError
from games.mail import services
from games.mail.selectors import player_by_token
from games.models import Outbox, PlayerSettings

KIND_LABELS = {
    Outbox.Kind.GAME_STARTED: "a game you joined has started",
    Outbox.Kind.YOUR_TURN: "it is your turn",
    Outbox.Kind.REMINDER: "reminders while a game waits for you",
    Outbox.Kind.DEADLINE_WARNING: "your time is running out",
    Outbox.Kind.TIMEOUT: "your time ran out",
    Outbox.Kind.GAME_OVER: "a game is over (result and replay)",
    Outbox.Kind.TAKEBACK_REQUEST: "an opponent asks for a takeback",
}


@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest, token: str | None = None) -> HttpResponse:
    """Which emails to get, the daily digest, and vacation. Opened from an email's link
    (its token names the address) or signed in."""
    user = _player(request, token)
    if user is None:
        return render(request, "mail/preferences_unknown.html", status=404)
    message, error = "", ""
    if request.method == "POST":
        try:
            match request.POST.get("action"):
                case "vacation_start":
                    game_services.vacation_start(user=user)
                    message = "Enjoy your vacation: your clocks are stopped."
                case "vacation_end":
                    game_services.vacation_end(user=user)
                    message = "Welcome back: your clocks run again."
                case _:
                    services.preferences_update(
                        user=user,
                        wanted_kinds=request.POST.getlist("kinds"),
                        daily_digest=request.POST.get("daily_digest") == "on",
                    )
                    message = "Your preferences are saved."
        except ServiceError as refused:
            error = refused.message
    prefs = PlayerSettings.objects.filter(user=user).first() or PlayerSettings(user=user)
    left = game_services.vacation_left(prefs, timezone.now())
    context = {
        "kinds": [
            (kind, label, kind not in prefs.muted_kinds) for kind, label in KIND_LABELS.items()
        ],
        "prefs": prefs,
        "vacation_days_left": round(left.total_seconds() / 86400, 1),
        "message": message,
        "error": error,
    }
    return render(request, "mail/preferences.html", context, status=400 if error else 200)


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (mail scanners open links); POST unsubscribes — also the RFC 8058
    one-click POST a mail client sends, which carries no CSRF token, hence the exemption:
    the signed token is the authority. The answer is the same for any token."""
    if request.method == "POST":
        services.unsubscribe(token=token)
        return render(request, "mail/unsubscribed.html")
    return render(request, "mail/unsubscribe.html", {"token": token})


@receiver(inbound)
def inbound_received(sender, event, esp_name, **kwargs) -> None:
    """A reply delivered by a hosted provider's webhook (``/mail/anymail/<esp>/inbound/``)."""
    message = event.message
    recipients = (message.envelope_recipient,) if message.envelope_recipient else ()
    services.reply_receive(raw=message.as_bytes(), recipients=recipients)


def _player(request: HttpRequest, token: str | None):
    if token is None:
        return request.user if request.user.is_authenticated else None
    return player_by_token(token)
