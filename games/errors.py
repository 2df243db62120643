"""What a service refuses, as values every door can render: a code, a message for people,
the HTTP status an API gives it, and details (the legal moves, the current seq…)."""


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None, **details) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.details = details


class BadRequest(ServiceError):
    status = 400


class Forbidden(ServiceError):
    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    status = 404
    code = "not_found"


class Conflict(ServiceError):
    status = 409
    code = "conflict"


class TooManyRequests(ServiceError):
    """A rate limit: ``retry_after`` seconds until the next try is counted again."""

    status = 429
    code = "throttled"

    def __init__(self, message: str, *, retry_after: int, **details) -> None:
        super().__init__(message, retry_after=max(1, int(retry_after)), **details)
        self.retry_after = self.details["retry_after"]
