"""Signing in and out: a link sent by email, or a password for staff. Thin doors over
``games.services.accounts``, each rate-limited (``games.throttles``)."""

from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from games import services, throttles
from games.errors import ServiceError
from games.forms import EmailForm


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
        email = form.cleaned_data["email"].strip().lower()
        if throttles.sign_in_email_allowed(request, email):
            services.sign_in_request(email=email, next_url=next_url)
        return render(request, "signin_sent.html", {"email": email, "next": next_url})
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
            user = services.account_sign_in(code=code)
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
    auth_views.LoginView.as_view(template_name="signin_password.html")
)
sign_out = auth_views.LogoutView.as_view(next_page="/")
