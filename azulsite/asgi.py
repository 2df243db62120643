"""The site as an ASGI application, for the Procfile's ``stream`` process (uvicorn): it
holds the open pages' event streams (``games.streams``), each a coroutine waiting on
Redis. Every other page is the WSGI site's (``azulsite.wsgi``, gunicorn)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")

application = get_asgi_application()
