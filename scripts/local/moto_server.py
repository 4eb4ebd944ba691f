"""moto's server (`python -m moto.server`) with what local runs and tests need of it.

Started by scripts/local/moto-server.ts with moto's own arguments (-H, -p). werkzeug's
development server, which moto runs on, answers every request with `Connection: close`, waits
up to 10 ms after each answer for bytes the application left unread, and starts a thread per
connection: an SDK call paid for a TCP connection, a thread and the wait, and moto spent most
of its CPU outside moto. Here a connection is kept alive across requests (HTTP/1.1, as S3
does), which is safe because each request's body is read whole before moto sees it: nothing is
ever left on the socket to mistake for the next request line, so the wait has nothing to do.
"""

import io
import sys
import threading

import werkzeug.serving as serving
from werkzeug.serving import WSGIRequestHandler

WSGIRequestHandler.protocol_version = "HTTP/1.1"
# Headers and body go out in separate writes; with Nagle's algorithm the second waits for the
# client's delayed ACK (tens of milliseconds a request).
WSGIRequestHandler.disable_nagle_algorithm = True
# One line a request on a stdout nobody reads.
WSGIRequestHandler.log_request = lambda self, *args, **kwargs: None

_send_header = WSGIRequestHandler.send_header


def _send_header_keeping_alive(self, key, value):
    # werkzeug adds `Connection: close` to every answer; keep the connection unless the client
    # asked to close it (http.server sets close_connection from the request).
    if key.lower() == "connection" and value.lower() == "close" and not self.close_connection:
        return
    _send_header(self, key, value)


WSGIRequestHandler.send_header = _send_header_keeping_alive


class _NothingLeftToDrain:
    """werkzeug's selector for draining unread request bytes: there are none (see above)."""

    def register(self, *args):
        pass

    def select(self, timeout=None):
        return []

    def close(self):
        pass


class _Selectors:
    DefaultSelector = _NothingLeftToDrain
    EVENT_READ = 1


serving.selectors = _Selectors


def _with_whole_body(app):
    def wrapped(environ, start_response):
        stream = environ["wsgi.input"]
        if environ.get("wsgi.input_terminated"):  # chunked: werkzeug de-chunks to the end
            body = stream.read()
        else:
            length = environ.get("CONTENT_LENGTH") or "0"
            body = stream.read(int(length)) if length.isdigit() and int(length) > 0 else b""
        environ["wsgi.input"] = io.BytesIO(body)
        environ["wsgi.input_terminated"] = True
        return app(environ, start_response)

    return wrapped


_run_simple = serving.run_simple


def _run_simple_whole_bodies(hostname, port, application, *args, **kwargs):
    return _run_simple(hostname, port, _with_whole_body(application), *args, **kwargs)


# moto.server imports run_simple by name: patched before it is imported.
serving.run_simple = _run_simple_whole_bodies

# moto lists its own package directory (a stat per service) twice per request to route it.
from moto import backends  # noqa: E402

_MOTO_MODULES = tuple(backends.list_of_moto_modules())
backends.list_of_moto_modules = lambda: _MOTO_MODULES

# S3 applies If-Match and If-None-Match atomically; moto checks, then writes, on a threaded
# server, so two racing conditional creates could both succeed. One lock makes it S3's.
from moto.s3.responses import S3Response  # noqa: E402

_put = getattr(S3Response, "put_object", None)
_put_lock = threading.Lock()


def _atomic_put(self, *args, **kwargs):
    with _put_lock:
        return _put(self, *args, **kwargs)


if _put is not None:
    S3Response.put_object = _atomic_put

# moto's clock builds two datetimes per reading, and SQS reads it for every message on the
# queue each time a queue's attributes are computed, which a send to a FIFO queue does three
# times: a send cost time proportional to the messages waiting. The same instant, read once.
import time  # noqa: E402
from functools import lru_cache  # noqa: E402

from moto.core import utils as moto_utils  # noqa: E402

_unix_time = moto_utils.unix_time


def _fast_unix_time(dt=None):
    return time.time() if dt is None else _unix_time(dt)


moto_utils.unix_time = _fast_unix_time

from moto.sqs import models as sqs_models  # noqa: E402


def _waiting(queue):
    now = time.time() * 1000.0
    return [m for m in queue._messages if now > m.visible_at and not now < m.delayed_until]


def _in_flight(queue):
    now = time.time() * 1000.0
    return sum(1 for m in queue._messages if not now > m.visible_at)


def _delayed(queue):
    now = time.time() * 1000.0
    return sum(1 for m in queue._messages if now < m.delayed_until)


sqs_models.Queue.messages = property(_waiting)
sqs_models.Queue.approximate_number_of_messages = property(lambda q: len(_waiting(q)))
sqs_models.Queue.approximate_number_of_messages_not_visible = property(_in_flight)
sqs_models.Queue.approximate_number_of_messages_delayed = property(_delayed)

# Attribute and action names are turned into snake case on every request, by a regex each time.
from moto.core import responses as core_responses  # noqa: E402
from moto.sns import models as sns_models, responses as sns_responses  # noqa: E402

_snake = lru_cache(maxsize=4096)(moto_utils.camelcase_to_underscores)
for _module in (moto_utils, core_responses, sqs_models, sns_models, sns_responses):
    _module.camelcase_to_underscores = _snake

from moto.server import main  # noqa: E402

main(sys.argv[1:])
