"""Celery tasks: thin doors that take ids, load, and call a service."""

import logging

from celery import shared_task

log = logging.getLogger(__name__)


@shared_task
def heartbeat() -> str:
    """Beat's proof of life: a line in the worker's log every minute."""
    log.info("heartbeat: beat and worker are running")
    return "ok"
