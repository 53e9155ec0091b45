"""The error format and status contract of ARCHITECTURE.md section 4.

Every error body is {"detail": str, "code": str}; 422 adds "errors": [{"field", "message"}].
Domain code raises these; the handlers installed by `install_error_handlers` render them.
"""

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("pinbid.errors")


class ApiError(Exception):
    status = 400
    code = "bad_request"
    retry_after: int | None = None  # seconds, sent as Retry-After when set

    def __init__(self, detail: str, *, code: str | None = None, errors: list[dict[str, str]] | None = None):
        super().__init__(detail)
        self.detail = detail
        if code:
            self.code = code
        self.errors = errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"detail": self.detail, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class Forbidden(ApiError):
    """No valid session, an expired or revoked token, or the wrong role."""

    status = 403
    code = "forbidden"


class InstagramUnauthorized(ApiError):
    """401 is reserved for: the Instagram side is not connected or needs a login."""

    status = 401
    code = "instagram_unauthorized"


class SecondFactor(ApiError):
    """401 also answers an operator's sign-in without its second factor (`second_factor_required`) or with a wrong
    or already used code (`invalid_second_factor`)."""

    status = 401
    code = "second_factor_required"


class NotFound(ApiError):
    status = 404
    code = "not_found"


class MethodNotAllowed(ApiError):
    status = 405
    code = "method_not_allowed"


class Conflict(ApiError):
    status = 409
    code = "conflict"


class NotYet(Conflict):
    """"Not yet": this service has not heard yet what another one already decided (a payment, a post, a comment
    travelling as an event). A 409 with Retry-After, which the web asks again quietly (docs/decisions/api.md)."""

    code = "not_yet"
    retry_after = 2

    def __init__(self, detail: str, *, code: str | None = None, retry_after: int | None = None):
        super().__init__(detail, code=code)
        if retry_after is not None:
            self.retry_after = retry_after


class Invalid(ApiError):
    status = 422
    code = "validation_error"

    def __init__(self, detail: str, *, field: str | None = None, code: str | None = None):
        errors = [{"field": field or "", "message": detail}]
        super().__init__(detail, code=code, errors=errors)


class TooManyRequests(ApiError):
    status = 429
    code = "too_many_requests"

    def __init__(self, detail: str, *, retry_after: int):
        super().__init__(detail)
        self.retry_after = retry_after


class ServiceUnavailable(ApiError):
    status = 503
    code = "service_unavailable"


class Busy(ServiceUnavailable):
    """Every connection of the pool stayed in use for the whole pool timeout: try again shortly."""

    code = "busy"
    retry_after = 1

    def __init__(self) -> None:
        super().__init__("The service is busy. Please try again in a moment.")


class BadGateway(ApiError):
    status = 502
    code = "bad_gateway"


def error_response(status: int, detail: str, code: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, "code": code, **extra}, status_code=status)


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts)


def _validation_message(err: dict[str, Any]) -> str:
    if err.get("type") == "extra_forbidden":
        return "This field is not allowed."
    if err.get("type") == "missing":
        return "This field is required."
    if err.get("type") == "json_invalid":
        return "The request body is not valid JSON."
    if err.get("type") in ("too_long", "too_short") and isinstance(err.get("input"), str):
        # a length checked after a validator (PlainText with max_length) is told of "items"; a text has characters
        limit = err.get("ctx", {}).get("max_length" if err["type"] == "too_long" else "min_length")
        return f"Use at most {limit} characters." if err["type"] == "too_long" else f"Use at least {limit} characters."
    msg = str(err.get("msg", "Invalid value."))
    # pydantic prefixes custom errors with "Value error, "; a person does not need that
    return msg.removeprefix("Value error, ")


def _field_in_words(loc: tuple[Any, ...]) -> str:
    """displayName or display_name -> "Display name": the field as a person would name it."""
    names = [str(p) for p in loc if isinstance(p, str) and p not in ("body", "query", "path", "header")]
    if not names:
        return ""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", names[-1]).replace("_", " ").lower()
    return words[:1].upper() + words[1:]


def validation_detail(err: dict[str, Any]) -> str:
    """The sentence people read. Our own rules are whole sentences already; pydantic's generic ones are
    prefixed with the field in words, never with its name in code ("amount: ...")."""
    message = _validation_message(err)
    field = _field_in_words(tuple(err.get("loc", ())))
    if err.get("type") in ("value_error", "assertion_error") or not field:
        return message
    if err.get("type") == "missing":
        return f"{field} is required."
    if err.get("type") == "extra_forbidden":
        return f"{field} is not allowed."
    return f"{field}: {message}"


def validation_errors(exc: RequestValidationError) -> list[dict[str, str]]:
    return [{"field": _field_name(tuple(e.get("loc", ()))), "message": _validation_message(e)} for e in exc.errors()]


_STATUS_TEXT = {
    400: ("The request could not be understood.", "bad_request"),
    401: ("The Instagram account is not connected.", "instagram_unauthorized"),
    403: ("Please sign in again.", "forbidden"),
    404: ("Not found.", "not_found"),
    405: ("This method is not allowed here.", "method_not_allowed"),
    413: ("The request body is too large.", "payload_too_large"),
    415: ("Send the request body as JSON.", "unsupported_media_type"),
}


class DatabaseUnavailable(ServiceUnavailable):
    code = "database_unavailable"
    retry_after = 2  # seconds: the pool's pre-ping replaces a dropped connection on the next request

    def __init__(self) -> None:
        super().__init__("The service lost its database connection. Please try again in a moment.")


def lost_database_connection(exc: DBAPIError) -> bool:
    """The connection went away (PostgreSQL restarted, the backend was terminated, the network dropped)."""
    return exc.connection_invalidated or isinstance(exc, OperationalError)


def _internal_error(request: Request) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return error_response(500, "Something went wrong on our side. Please try again.", "internal_error")


def api_error_response(exc: ApiError) -> JSONResponse:
    response = JSONResponse(exc.body(), status_code=exc.status)
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return api_error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = validation_errors(exc)
        first = exc.errors()[0] if exc.errors() else {}
        return error_response(422, validation_detail(first), "validation_error", errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        default_detail, code = _STATUS_TEXT.get(exc.status_code, ("Request failed.", "error"))
        detail = exc.detail if isinstance(exc.detail, str) and exc.status_code not in _STATUS_TEXT else default_detail
        return error_response(exc.status_code, detail, code)

    @app.exception_handler(DBAPIError)
    async def _database(request: Request, exc: DBAPIError) -> JSONResponse:
        if not lost_database_connection(exc):
            return _internal_error(request)
        log.warning("lost the database connection on %s %s: %s", request.method, request.url.path,
                    type(exc.orig).__name__)
        return await _api_error(request, DatabaseUnavailable())

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        return _internal_error(request)
