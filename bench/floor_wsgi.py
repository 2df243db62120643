"""The site's WSGI application with one route more, for ``bench/api_moves.py``'s floor:
``POST /api/bench-floor/``, the cheapest authenticated DRF POST that writes, through the
same middleware, authentication, throttles and exception handler as a move. It inserts one
row (``bench_floor``, made by the bench) in one transaction and answers 201; a GET of it
is the floor of a read (authenticated, it reads nothing more and answers 200). Never
served by the site: only the bench's gunicorn loads this module."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
application = get_wsgi_application()

from django.conf import settings  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import include, path  # noqa: E402
from rest_framework import status  # noqa: E402
from rest_framework.permissions import IsAuthenticated  # noqa: E402
from rest_framework.response import Response  # noqa: E402

from games.api.toolkit import Api  # noqa: E402


class FloorApi(Api):
    permission_classes = [IsAuthenticated]

    def post(self, request):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_floor (player, data) VALUES (%s, %s) RETURNING id",
                [request.user.pk, '{"n": 1}'],
            )
            (row,) = cursor.fetchone()
        return Response({"id": row}, status=status.HTTP_201_CREATED)

    def get(self, request):
        return Response({"player": request.user.pk})


urlpatterns = [
    path("api/bench-floor/", FloorApi.as_view()),
    path("", include(settings.ROOT_URLCONF)),
]
settings.ROOT_URLCONF = __name__
