"""The REST API door (``/api/``, routes in ``games/api_urls.py``): ``toolkit`` (errors, input
checks, the base view) and ``serializers`` (the game as the API shows it) serve the endpoint
modules, one per sub-domain: ``tables``, ``replays``, ``accounts``; the ratings' reads are in
``games/ratings/apis.py``. The OpenAPI schema is at ``/api/schema/``, its docs at ``/api/docs/``."""
