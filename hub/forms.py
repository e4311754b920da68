"""Staff forms as the server sees them: read within a size limit, from this hub's own pages only, each field
checked with a message the staff can act on (a 400, never a 500). No field may hold a control character (the
café contract's text rule, `cafe.contract.safe_text`): such a form is answered 400 as a whole.

Cross-site requests: every staff POST must carry an `Origin` (or, failing that, a `Referer`) naming this hub's
host and port — a page elsewhere cannot make a logged-in browser post here. Browsers send `Origin` with every
form POST; a reverse proxy must pass the `Host` the browser asked for (docs/cafe.md).
"""

from __future__ import annotations

import logging
from datetime import datetime
from urllib.parse import parse_qsl, urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from cafe.contract import safe_text
from hub.ratelog import RateLimitedLog
from hub.texts import lang_of, tr

MAX_FORM_BYTES = 256 * 1024

log = logging.getLogger("hub.forms")
refusals = RateLimitedLog(log, every_s=30.0)


class FormError(ValueError):
    """A form the hub refuses; the message is the English sentence to show (the hub's catalogue has its German)."""

    def __init__(self, message: str, **values: object):
        super().__init__(message)
        self.message = message
        self.values = values


def same_origin(request: Request) -> bool:
    """Did this POST come from one of the hub's own pages?"""
    source = request.headers.get("origin") or request.headers.get("referer") or ""
    if not source or source == "null":
        return False
    host = request.headers.get("host", "")
    return bool(host) and urlsplit(source).netloc.lower() == host.lower()


def client_address(request: Request) -> str:
    """The client's address (a trusted reverse proxy's X-Forwarded-For, as uvicorn applies it)."""
    return request.client.host if request.client else "unknown"


def cross_site_refusal(request: Request) -> Response | None:
    """None for a POST from the hub's own pages; otherwise the 403 to answer it with (logged at a limited rate).
    Every POST of the hub goes through this: the staff area's, the club nights' desk and the guests' check-in."""
    if same_origin(request):
        return None
    address = client_address(request)
    refusals.warning("origin", "refused a POST to %s from %s: origin %r, host %r", request.url.path, address,
                     request.headers.get("origin"), request.headers.get("host"))
    return PlainTextResponse(tr("Refused: this form did not come from the hub's own page.", lang_of(request)),
                             status_code=403)


async def read_form(request: Request) -> dict[str, str]:
    """The URL-encoded form of a POST (the hub's forms post nothing else), at most MAX_FORM_BYTES."""
    length = request.headers.get("content-length", "")
    if length and (not length.isdigit() or int(length) > MAX_FORM_BYTES):
        raise FormError("The form is too large.")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise FormError("The form is too large.")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=50, strict_parsing=False)
    except (UnicodeDecodeError, ValueError):
        raise FormError("The form could not be read.") from None
    if not all(safe_text(key) and safe_text(value) for key, value in pairs):  # the contract's text rule, at the form
        raise FormError("The form holds a control character: remove it and send the form again.")
    return dict(pairs)


def text(form: dict[str, str], key: str, label: str, limit: int) -> str:
    """A text field, stripped, at most `limit` characters."""
    value = form.get(key, "").strip()
    if len(value) > limit:
        raise FormError("{field}: at most {limit} characters.", field=label, limit=limit)
    return value


def local_time(value: str, label: str) -> str | None:
    """A `datetime-local` field as ISO 8601 with this machine's offset (what the protocol wants); None if empty."""
    if not value:
        return None
    try:  # a moment whose offset would leave the calendar (year 1 minus an hour) is no date and time either
        return datetime.fromisoformat(value).astimezone().isoformat(timespec="seconds")
    except (ValueError, OverflowError):
        raise FormError("{field}: not a date and time.", field=label) from None
