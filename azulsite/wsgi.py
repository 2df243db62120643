"""WSGI entry point for gunicorn (``Procfile``: web)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "azulsite.settings")
application = get_wsgi_application()
# What is loaded now (the modules, the settings, the URL patterns) lives as long as the
# process: kept out of the garbage collector's full passes, which otherwise walk all of it.
# Such a pass over a loaded process's 130,000 objects took 50-60 ms, and was every slow view
# of a 200-player tournament's page (docs/scale.md).
get_resolver().url_patterns  # noqa: B018  (loads them now, not at the first request)
gc.freeze()
