"""Email doors on the web: the preferences page, unsubscribe (RFC 8058 one-click) and the
inbound webhook of hosted mail providers (django-anymail)."""

from email import message_from_bytes
from functools import wraps
from io import BytesIO

from anymail import urls as anymail_urls
from anymail.signals import inbound
from anymail.utils import get_request_basic_auth
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.urls import URLPattern
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from games.errors import ServiceError
from games.i18n import preferences_of, speaking_to, supported
from games.mail import services
from games.mail.selectors import player_by_token
from games.models import NoticeKind, PlayerSettings, PushSubscription
from games.notify.channels import channel
from games.notify.channels.email import tokens
from games.notify.preferences import wants
from games.services.deadlines import vacation_end, vacation_left, vacation_start
from games.services.notices import notices_choose

EMAIL = channel("email")
PUSH = channel("push")

# Translators: each completes "Tell me when…" on the preferences page (by email, by a
# notification on the player's devices).
KIND_LABELS = {
    NoticeKind.GAME_STARTED: gettext_lazy("a game you joined has started"),
    NoticeKind.YOUR_TURN: gettext_lazy("it is your turn"),
    NoticeKind.REMINDER: gettext_lazy("reminders while a game waits for you"),
    NoticeKind.DEADLINE_WARNING: gettext_lazy("your time is running out"),
    NoticeKind.TIMEOUT: gettext_lazy("your time ran out"),
    NoticeKind.GAME_OVER: gettext_lazy("a game is over (result and replay)"),
    NoticeKind.TAKEBACK_REQUEST: gettext_lazy("an opponent asks for a takeback"),
    NoticeKind.PLAN_DROPPED: gettext_lazy("your planned moves are dropped or not played"),
    NoticeKind.TOURNAMENT_JOINED: gettext_lazy("your registration for a tournament is confirmed"),
    NoticeKind.TOURNAMENT_ROUND: gettext_lazy("your game in a tournament's new round has started"),
    NoticeKind.TOURNAMENT_RESULTS: gettext_lazy("a tournament's round is over (your standing)"),
    NoticeKind.TOURNAMENT_FINISHED: gettext_lazy("a tournament you played is over (your standing)"),
    NoticeKind.TOURNAMENT_CANCELLED: gettext_lazy("a tournament you registered for is called off"),
}


@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest, token: str | None = None) -> HttpResponse:
    """Which emails to get, the daily digest, and vacation. Opened from an email's link
    (its token names the address) or signed in."""
    user = _player(request, token)
    if user is None:
        return render(request, "mail/preferences_unknown.html", status=404)
    with _speaking(request, user):
        return _preferences(request, user)


def _speaking(request: HttpRequest, user):
    """The page of an email's link in its player's language and time zone: the language
    chosen on their account, else the browser's (the page's own)."""
    prefs = preferences_of(user)
    chosen = supported(prefs.language) if prefs else ""
    return speaking_to(user, language=chosen or getattr(request, "LANGUAGE_CODE", None))


def _preferences(request: HttpRequest, user) -> HttpResponse:
    message, error = "", ""
    if request.method == "POST":
        try:
            match request.POST.get("action"):
                case "vacation_start":
                    vacation_start(user=user)
                    message = _("Enjoy your vacation: your clocks are stopped.")
                case "vacation_end":
                    vacation_end(user=user)
                    message = _("Welcome back: your clocks run again.")
                case _:
                    _choose(request, user)
                    message = _("Your preferences are saved.")
        except ServiceError as refused:
            error = refused.message
    prefs = PlayerSettings.objects.filter(user=user).first() or PlayerSettings(user=user)
    left = vacation_left(prefs, timezone.now())
    context = {
        "kinds": [
            (
                kind,
                label,
                wants(prefs, kind, EMAIL),
                wants(prefs, kind, PUSH) if kind in PUSH.optional_kinds else None,
            )
            for kind, label in KIND_LABELS.items()
        ],
        "devices": PushSubscription.objects.filter(user=user).count(),
        "prefs": prefs,
        "vacation_days_left": round(left.total_seconds() / 86400, 1),
        "message": message,
        "error": error,
    }
    return render(request, "mail/preferences.html", context, status=400 if error else 200)


def _choose(request: HttpRequest, user) -> None:
    """Save the kinds chosen per channel: the email column (``kinds``) and, when the form
    has it (``columns``), the push column (``push_kinds``)."""
    daily_digest = request.POST.get("daily_digest") == "on"
    columns = {EMAIL.name: "kinds", PUSH.name: "push_kinds"}
    for name in [EMAIL.name, *request.POST.getlist("columns")]:
        if name in columns:
            notices_choose(
                user=user,
                channel_name=name,
                wanted_kinds=request.POST.getlist(columns[name]),
                daily_digest=daily_digest,
            )


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (mail scanners open links); POST unsubscribes — also the RFC 8058
    one-click POST a mail client sends, which carries no CSRF token, hence the exemption:
    the signed token is the authority. The answer is the same for any token of one form:
    a player's, or an address's (an invitation's, to an address that may have no
    account: the page speaks of the address)."""
    # In the page's own language (cookie, browser), never the player's: the answer must not
    # tell whether the token named anyone.
    context = {"token": token, "address": tokens.read_player_token(token) is None}
    if request.method == "POST":
        services.unsubscribe(token=token)
        return render(request, "mail/unsubscribed.html", context)
    return render(request, "mail/unsubscribe.html", context)


def webhook_secret() -> str:
    return str(settings.ANYMAIL.get("WEBHOOK_SECRET") or "")


def webhook_guard(view):
    """A provider's webhook, refused to anyone without the shared secret (HTTP basic auth
    ``ANYMAIL_WEBHOOK_SECRET``, compared in constant time), and refused to everyone while no
    secret is set: a reply address is not a password, and without this anyone who knows
    one could post a forged reply. anymail then checks the provider's own signature where
    the provider signs and its key is set (``ANYMAIL_<PROVIDER>_WEBHOOK_SIGNING_KEY``…)."""

    @wraps(view)
    def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        secret = webhook_secret()
        if not secret:
            return JsonResponse(
                {
                    "code": "webhook_disabled",
                    # An operator's message (API-style JSON for the provider): not translated.
                    "message": "inbound mail is switched off: the site has no "
                    "ANYMAIL_WEBHOOK_SECRET; set it and give the provider "
                    "https://USER:PASSWORD@host/mail/anymail/<provider>/inbound/",
                },
                status=403,
            )
        if not constant_time_compare(get_request_basic_auth(request) or "", secret):
            response = JsonResponse(
                {
                    "code": "webhook_unauthorized",
                    "message": "wrong or missing basic auth: send the webhook secret",
                },
                status=401,
            )
            response["WWW-Authenticate"] = 'Basic realm="inbound mail"'
            return response
        return _read_within(request, settings.MAIL_WEBHOOK_MAX_BYTES) or view(
            request, *args, **kwargs
        )

    return guarded


def _read_within(request: HttpRequest, most: int) -> HttpResponse | None:
    """Read an authenticated provider's post whole, up to ``most`` bytes (what providers
    forward: a reply with a photo attached is several MB, more once base64-encoded in
    JSON), instead of under Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``, which stays the
    limit of every other door; form posts are parsed here for the same reason (a raw
    message is one form field). ``None`` when read; the 413 answer when too large."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    body = b"" if declared > most else request.read(most + 1)
    if declared > most or len(body) > most:
        return JsonResponse(
            {
                "code": "body_too_large",
                # An operator's message (API-style JSON for the provider): not translated.
                "message": f"inbound mail is read up to {most} bytes (MAIL_WEBHOOK_MAX_BYTES)",
            },
            status=413,
        )
    # What HttpRequest.body itself keeps once read, so the view reads this copy.
    request._body = body
    request._stream = BytesIO(body)
    if request.content_type == "multipart/form-data":
        request._post, request._files = form_data(request.META.get("CONTENT_TYPE", ""), body)
    return None


def form_data(content_type: str, body: bytes) -> tuple[QueryDict, MultiValueDict]:
    """A ``multipart/form-data`` body (RFC 7578: a MIME multipart) as Django's POST and
    FILES, with no limit on a field's size."""
    message = message_from_bytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    post, files = QueryDict(mutable=True), MultiValueDict()
    for part in message.get_payload() if message.is_multipart() else ():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        if not name:
            continue
        if part.get_filename() is not None:
            files.appendlist(
                name, SimpleUploadedFile(part.get_filename(), payload, part.get_content_type())
            )
        else:
            post.appendlist(name, payload.decode(part.get_content_charset() or "utf-8", "replace"))
    post._mutable = False
    return post, files


def guarded_webhook_routes() -> tuple[list[URLPattern], str]:
    """anymail's webhook routes, each behind ``webhook_guard``."""
    routes = [
        URLPattern(route.pattern, webhook_guard(route.callback), route.default_args, route.name)
        for route in anymail_urls.urlpatterns
    ]
    return routes, anymail_urls.app_name


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
