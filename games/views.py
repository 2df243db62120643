"""Server-rendered pages: thin doors over the services and selectors."""

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The front page."""
    return render(request, "home.html")


def health(request: HttpRequest) -> JsonResponse:
    """For load balancers and ``make run``: answers once the database does."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
