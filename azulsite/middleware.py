"""The site's own middleware."""

from django.middleware.gzip import GZipMiddleware


class GZipButStreams(GZipMiddleware):
    """Django's gzip, except for event streams (``games.streams``): gzip holds small writes
    back until it has a block to send, and an event must reach the page the moment it is
    written."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)
