"""Signing in and out: a link sent by email, or a password for staff. Thin doors over
``games.services.accounts``, each rate-limited (``games.throttles``)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from games import i18n, throttles
from games.errors import ServiceError
from games.forms import EmailForm, PasswordSignInForm, PreferencesForm
from games.selectors.seats import hours_of_player
from games.selectors.tokens import tokens_of
from games.services import data_export
from games.services.accounts import account_sign_in, player_preferences_set, sign_in_request
from games.services.tokens import NAME_LENGTH, api_token_create, api_token_revoke


def _next_url(request: HttpRequest, fallback: str = "/lobby/") -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return wanted
    return fallback


@require_http_methods(["GET", "POST"])
@throttles.throttled(throttles.SIGN_IN_FORM)
def sign_in(request: HttpRequest) -> HttpResponse:
    """Ask for a sign-in link by email. The page answers the same whether the email goes
    out or a limit holds it back, so it tells nothing about the address."""
    form = EmailForm(request.POST or None)
    next_url = _next_url(request)
    if request.method == "POST" and form.is_valid():
        email = form.cleaned_data["email"]
        queued = True
        if throttles.sign_in_email_allowed(request, email):
            queued = sign_in_request(email=email, next_url=next_url, language=request.LANGUAGE_CODE)
        context = {"email": email, "next": next_url, "already_sent": not queued}
        return render(request, "signin_sent.html", context)
    return render(request, "signin.html", {"form": form, "next": next_url})


@never_cache
@require_http_methods(["GET", "POST"])
@throttles.throttled(throttles.SIGN_IN_CODES)
def sign_in_link(request: HttpRequest) -> HttpResponse:
    """The emailed link's page: GET shows a "Sign in" button (mail scanners open links),
    with the code the link carries in its fragment filled in by ``signin.js``; POST
    signs in. The site's ``Referrer-Policy: same-origin`` suffices: a fragment is never in
    a Referer, and ``no-referrer`` would make browsers send ``Origin: null``, which the
    CSRF check rightly refuses."""
    next_url = _next_url(request)
    code = request.POST.get("code", "")
    if request.method == "POST":
        try:
            user = account_sign_in(code=code)
        except ServiceError as error:
            response = render(
                request, "signin_failed.html", {"message": error.message}, status=error.status
            )
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(next_url)
    else:
        response = render(request, "signin_link.html", {"next": next_url})
    return response


sign_in_password = throttles.throttled(*throttles.PASSWORD_TRIES)(
    auth_views.LoginView.as_view(
        template_name="signin_password.html", authentication_form=PasswordSignInForm
    )
)
sign_out = auth_views.LogoutView.as_view(next_page="/")


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    """The account page: language and time zone, the way to the other settings, the
    download of one's data (issue 45) and one's API tokens (issue 53)."""
    form = _account_form(request, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player_preferences_set(
                user=request.user,
                language=form.cleaned_data["language"],
                time_zone=form.cleaned_data["time_zone"],
                hours=form.hours_value(),
            )
        except ServiceError as error:
            form.add_error(None, error.message)
            return render(request, "account.html", _account_context(request, form), status=400)
        response = redirect("account")
        _remember_language(response, form.cleaned_data["language"])
        with i18n.speaking_to(request.user, form.cleaned_data["language"]):
            messages.success(request, _("Your settings are saved."))
        return response
    return render(
        request,
        "account.html",
        _account_context(request, form),
        status=400 if form.errors else 200,
    )


def _account_context(request: HttpRequest, form: PreferencesForm, **tokens) -> dict:
    export = data_export.data_export_latest(request.user)
    progress = data_export.data_export_progress(export) if export else None
    return {
        "form": form,
        "export": export,
        "export_progress": progress,
        "tokens": tokens_of(request.user),
        "token_name_length": NAME_LENGTH,
        **tokens,
    }


def _account_form(request: HttpRequest, data=None) -> PreferencesForm:
    """The settings' form, filled with the player's (and ``data``, when posted)."""
    prefs = i18n.preferences_of(request.user)
    initial = {"language": prefs.language, "time_zone": prefs.time_zone or "UTC"} if prefs else {}
    initial.update(hours_of_player(request.user))
    return PreferencesForm(data, initial=initial)


@never_cache
@login_required
@require_POST
def api_token_new(request: HttpRequest) -> HttpResponse:
    """The account page's "Make a token": the page again, with the new key shown this once
    (answered, never redirected to, so the key is kept nowhere: not in a session, not in a
    page a reload would fetch); a refused name is said beside the form."""
    name = request.POST.get("name", "")
    try:
        token, key = api_token_create(user=request.user, name=name)
    except ServiceError as error:
        context = _account_context(
            request, _account_form(request), token_error=error.message, token_name=name
        )
        return render(request, "account.html", context, status=error.status)
    context = _account_context(request, _account_form(request), new_token=token, new_key=key)
    return render(request, "account.html", context)


@login_required
@require_POST
def api_token_revoked(request: HttpRequest, token_id: int) -> HttpResponse:
    """The account page's "Revoke" beside a token: the API refuses it from now on."""
    try:
        name = api_token_revoke(user=request.user, token_id=token_id)
    except ServiceError as error:
        messages.error(request, capfirst(error.message) + ".")
    else:
        messages.success(
            request,
            _("The token “%(name)s” is revoked: the API refuses it from now on.") % {"name": name},
        )
    return redirect(reverse("account") + "#api-tokens")


@login_required
@require_POST
def data_export_request(request: HttpRequest) -> HttpResponse:
    """The account page's "Download your data" button: ask for an archive (or find the one
    being built); a refusal (too many today) is said on the page."""
    try:
        data_export.data_export_request(user=request.user)
    except ServiceError as error:
        # Said at the top of the page, where the page opens.
        messages.error(request, error.message)
        return redirect("account")
    return redirect(reverse("account") + "#your-data")


@never_cache
@login_required
def data_export_progress(request: HttpRequest) -> JsonResponse:
    """How far the player's latest archive is, for the account page's poll
    (``data_export.js``)."""
    export = data_export.data_export_latest(request.user)
    if export is None:
        raise Http404
    progress = data_export.data_export_progress(export)
    return JsonResponse(
        {
            "status": progress.status,
            "done": progress.done,
            "total": progress.total,
            "text": progress.text,
        }
    )


@never_cache
@login_required
def data_export_download(request: HttpRequest, export_id: int) -> HttpResponse:
    """The archive, as a file to save: its owner's alone (anyone else finds nothing: 404),
    while it is kept."""
    export = data_export.data_export_for_download(request.user, export_id)
    if export is None:
        raise Http404
    response = HttpResponse(bytes(export.archive), content_type="application/zip")
    response["Content-Disposition"] = (
        f'attachment; filename="{data_export.archive_filename(export)}"'
    )
    return response


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The footer's language buttons: remembered in a cookie, and on the account of a
    signed-in player (so their emails follow)."""
    language = i18n.supported(request.POST.get("language"))
    response = redirect(_next_url(request, fallback="/"))
    if language:
        if request.user.is_authenticated:
            player_preferences_set(user=request.user, language=language)
        _remember_language(response, language)
    return response


def _remember_language(response: HttpResponse, language: str) -> None:
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite="Lax",
        )
    else:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
