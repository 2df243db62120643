"""azulsite: correspondence games of Azul: Summer Pavilion, Azul and Miyabi."""

from azulsite.celery import app as celery_app

__all__ = ["celery_app"]
