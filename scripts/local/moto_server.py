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
import os
import sys
import threading
import time

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

# http.server parses every request's headers with the email package's feed parser. For the
# plain `Name: value` lines (printable ASCII, CRLF-terminated) that SDKs send, the message it
# builds holds just those (name, value) pairs; a block with any other line (folded, control or
# non-ASCII characters, bare LF) still goes to the feed parser.
import email.parser  # noqa: E402
import http.client  # noqa: E402
import re  # noqa: E402


class _RequestHeaders(http.client.HTTPMessage):
    """The headers of a request to this server: the class http.server asks parse_headers for."""


WSGIRequestHandler.MessageClass = _RequestHeaders
_parse_headers = http.client.parse_headers
_PLAIN_HEADER_LINE = re.compile(rb"([\x21-\x39\x3b-\x7e]+):[ \t]*([\t\x20-\x7e]*)\r\n")


def _parse_plain_headers(fp, _class=http.client.HTTPMessage):
    if _class is not _RequestHeaders:
        return _parse_headers(fp, _class)
    lines = http.client._read_headers(fp)
    if lines[-1] == b"\r\n":
        pairs = []
        for line in lines[:-1]:
            match = _PLAIN_HEADER_LINE.fullmatch(line)
            if match is None:
                break
            pairs.append((match[1].decode("ascii"), match[2].decode("ascii")))
        else:
            message = _class()
            message._headers = pairs
            message._payload = ""
            return message
    return email.parser.Parser(_class=_class).parsestr(b"".join(lines).decode("iso-8859-1"))


http.client.parse_headers = _parse_plain_headers

# An answer's head and body went out in two writes, two sends and two wake-ups of the client.
# The head is now held until the body's first bytes and sent with them; whatever writes or
# flushes next (the body, http.server's flush at the end of each request, the close of the
# connection) sends it, so nothing is held past its request. Interim (1xx) heads go out at once.
class _HeadWithBody:
    def __init__(self, raw):
        self._raw = raw
        self.head = None

    def write(self, data):
        head = self.head
        if head is None:
            return self._raw.write(data)
        self.head = None
        return self._raw.write(head + bytes(data)) - len(head)

    def flush(self):
        head = self.head
        if head is not None:
            self.head = None
            self._raw.write(head)
        self._raw.flush()

    def __getattr__(self, name):
        return getattr(self._raw, name)


_setup = WSGIRequestHandler.setup


def _setup_holding_heads(self):
    _setup(self)
    self.wfile = _HeadWithBody(self.wfile)


def _flush_headers_held(self):
    if hasattr(self, "_headers_buffer"):
        head = b"".join(self._headers_buffer)
        self._headers_buffer = []
        wfile = self.wfile
        if isinstance(wfile, _HeadWithBody) and wfile.head is None and head[9:10] != b"1":
            wfile.head = head
        else:
            wfile.write(head)


WSGIRequestHandler.setup = _setup_holding_heads
WSGIRequestHandler.flush_headers = _flush_headers_held

# Every answer's Date header was formatted afresh; it only changes once a second. (Cached by
# whole second, and only away from the next one, where the formatting rounds up.)
_date_time_string = WSGIRequestHandler.date_time_string
_date_of_second = (None, None)


def _cached_date_time_string(self, timestamp=None):
    global _date_of_second
    if timestamp is not None:
        return _date_time_string(self, timestamp)
    now = time.time()
    second = int(now)
    if now - second > 0.999:
        return _date_time_string(self, now)
    cached_second, text = _date_of_second
    if cached_second != second:
        text = _date_time_string(self, second)
        _date_of_second = (second, text)
    return text


WSGIRequestHandler.date_time_string = _cached_date_time_string


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

# SSM's models import EC2's backends (for Run Command targets and `aws:ec2:image` parameters,
# which no Skywatch call uses), and EC2's models are most of a CPU-second to import, paid at the
# first SSM call of every moto process. While SSM's models load, they are handed a stand-in for
# those backends that imports EC2 when first used; anything else importing EC2 gets it whole.
import importlib.abc  # noqa: E402
import importlib.machinery  # noqa: E402
import types  # noqa: E402


class _Ec2BackendsOnFirstUse:
    def __getitem__(self, key):
        return importlib.import_module("moto.ec2").ec2_backends[key]

    def __getattr__(self, name):
        return getattr(importlib.import_module("moto.ec2").ec2_backends, name)


class _SsmModelsWithoutEc2(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "moto.ssm.models" or "moto.ec2" in sys.modules:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module

        def load_with_stand_in(module):
            stand_in = types.ModuleType("moto.ec2")
            stand_in.ec2_backends = _Ec2BackendsOnFirstUse()
            sys.modules["moto.ec2"] = stand_in
            try:
                load(module)
            finally:
                if sys.modules.get("moto.ec2") is stand_in:
                    del sys.modules["moto.ec2"]

        spec.loader.exec_module = load_with_stand_in
        return spec


sys.meta_path.insert(0, _SsmModelsWithoutEc2())

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

# moto writes every reply through its generic model-driven serializer, which walks the
# operation's shape and tries several attribute names for every value: a ListObjectsV2 of a few
# keys cost three times a GetObject, and the Skywatch functions list on every run. A plain
# listing (no owners, no URL encoding) is written here directly, in the serializer's own element
# order and escaping; anything else still goes through it.
from xml.sax.saxutils import escape as _xml_escape  # noqa: E402

_LISTING_KEYS = frozenset(
    {
        "Name",
        "Prefix",
        "MaxKeys",
        "KeyCount",
        "IsTruncated",
        "Contents",
        "Delimiter",
        "CommonPrefixes",
        "NextContinuationToken",
        "StartAfter",
    }
)
_LISTED_OBJECT_KEYS = frozenset(
    {"Key", "LastModified", "ETag", "Size", "StorageClass", "ChecksumAlgorithm"}
)


def _xml_element(name, value):
    if isinstance(value, bool):
        value = "true" if value else "false"
    text = _xml_escape(str(value))
    return f"<{name}>{text}</{name}>" if text else f"<{name}/>"


def _listed_object(item):
    parts = [
        _xml_element("Key", item["Key"]),
        _xml_element("LastModified", item["LastModified"]),
        _xml_element("ETag", item["ETag"]),
    ]
    parts += [_xml_element("ChecksumAlgorithm", a) for a in item.get("ChecksumAlgorithm", [])]
    parts.append(_xml_element("Size", item["Size"]))
    parts.append(_xml_element("StorageClass", item["StorageClass"]))
    return "<Contents>" + "".join(parts) + "</Contents>"


def _plain_listing(result):
    return (
        isinstance(result, dict)
        and result.keys() <= _LISTING_KEYS
        and all(item.keys() <= _LISTED_OBJECT_KEYS for item in result.get("Contents", []))
    )


def _listing_xml(result):
    parts = [_xml_element("IsTruncated", result["IsTruncated"])]
    parts += [_listed_object(item) for item in result.get("Contents", [])]
    parts.append(_xml_element("Name", result["Name"]))
    parts.append(_xml_element("Prefix", result["Prefix"]))
    if "Delimiter" in result:
        parts.append(_xml_element("Delimiter", result["Delimiter"]))
    parts.append(_xml_element("MaxKeys", result["MaxKeys"]))
    for folder in result.get("CommonPrefixes", []):
        prefix = _xml_element("Prefix", folder["Prefix"])
        parts.append(f"<CommonPrefixes>{prefix}</CommonPrefixes>")
    parts.append(_xml_element("KeyCount", result["KeyCount"]))
    for name in ("NextContinuationToken", "StartAfter"):
        if name in result:
            parts.append(_xml_element(name, result[name]))
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
        + "".join(parts)
        + "</ListBucketResult>"
    )


_serialized = S3Response.serialized


def _serialized_listing_directly(self, action_result):
    result = action_result.result
    if getattr(self, "data", {}).get("Action") != "ListObjectsV2" or not _plain_listing(result):
        return _serialized(self, action_result)
    headers = {"Content-Type": "application/xml"}
    headers.update(self.response_headers)
    return 200, headers, _listing_xml(result)


S3Response.serialized = _serialized_listing_directly

# moto's clock builds two datetimes per reading, and SQS reads it for every message on the
# queue each time a queue's attributes are computed, which a send to a FIFO queue does three
# times: a send cost time proportional to the messages waiting. The same instant, read once.
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

# SNS signs every notification it delivers. moto made a 2048-bit RSA key for each subscription,
# at its first notification (some 50 ms of CPU, for every subscription a test provisions); SNS
# signs with one long-lived key. One key for all, made when first needed (two threads racing
# may each make one: either serves).
_sns_signing_key = None


def _shared_sns_signing_key(self):
    global _sns_signing_key
    if _sns_signing_key is None:
        from cryptography.hazmat.primitives.asymmetric import rsa

        _sns_signing_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return _sns_signing_key


if hasattr(sns_models.Subscription, "private_key"):
    sns_models.Subscription.private_key = _shared_sns_signing_key

# Which backend serves a host was found by trying each service's URL regex in turn (some 180)
# on every request; the answer for a host never changes.
from moto.moto_server.werkzeug_app import DomainDispatcherApplication  # noqa: E402

_backend_for_host = DomainDispatcherApplication.get_backend_for_host
_backends_by_host = {}


def _cached_backend_for_host(self, host):
    backend = _backends_by_host.get(host)
    if backend is None:
        backend = _backend_for_host(self, host)
        if backend is not None:  # an unknown host is looked up (and reported) every time
            _backends_by_host[host] = backend
    return backend


DomainDispatcherApplication.get_backend_for_host = _cached_backend_for_host

# Every JSON/query call listed the response class's members (inspect.getmembers) to see whether
# the action is implemented; a class's methods do not change while the server runs.
_method_names_from_class = moto_utils.method_names_from_class
_method_names = {}


def _cached_method_names(clazz):
    names = _method_names.get(clazz)
    if names is None:
        names = _method_names[clazz] = frozenset(_method_names_from_class(clazz))
    return names


core_responses.method_names_from_class = _cached_method_names

# An error response built the service's whole error table (every error shape of the model) each
# time: moto's cache of it lives on a factory made anew per error. One table per service.
from moto.core import errors as core_errors  # noqa: E402

_error_tables = {}


def _shared_error_tables(self):
    self._error_lut_cache = _error_tables


core_errors.ErrorLookupFactory.__init__ = _shared_error_tables

# S3 decides per call (three times a request) whether the bucket is in the host name, matching
# the host against a series of regexes; the answer depends on the host and moto's settings only.
from moto import settings as moto_settings  # noqa: E402

_subdomain_based_buckets = S3Response.subdomain_based_buckets
_subdomain_by_host = {}


def _cached_subdomain_based_buckets(self, request):
    if moto_settings.S3_IGNORE_SUBDOMAIN_BUCKETNAME:
        return False
    headers = request.headers
    host = headers.get("host", headers.get("Host"))
    if not host:
        return _subdomain_based_buckets(self, request)
    key = (host, os.environ.get("MOTO_S3_CUSTOM_ENDPOINTS"))
    answer = _subdomain_by_host.get(key)
    if answer is None:
        answer = _subdomain_by_host[key] = _subdomain_based_buckets(self, request)
    return answer


S3Response.subdomain_based_buckets = _cached_subdomain_based_buckets

# Every response gets a 52-character request id, and every message SQS hands out a 185-letter
# receipt handle, each drawn one `random.choice` (two Python calls) a character. The same draws
# from the same generator, taken 32 bits at a time in one call: getrandbits(32 * n) is n
# successive 32-bit outputs, and choice keeps the top bit_length(len(pool)) bits of one of them,
# drawing again when that is out of range. Identifiers stay what a seeded moto makes; a check
# below falls back to moto's own code if this Python's generator behaved otherwise.
import string  # noqa: E402
import struct  # noqa: E402

from moto.moto_api._internal import mock_random  # noqa: E402
from moto.moto_api._internal.moto_random import HEX_CHARS, MotoRandom  # noqa: E402


def _draw(rng, pool, count):
    """The same as [rng.choice(pool) for _ in range(count)], for a pool of 1 to 2**32 items."""
    n = len(pool)
    shift = 32 - n.bit_length()
    out = []
    while len(out) < count:
        need = count - len(out)
        words = struct.unpack(f"<{need}I", rng.getrandbits(32 * need).to_bytes(4 * need, "little"))
        out.extend([pool[r] for r in [w >> shift for w in words] if r < n])
    return out


def _random_string(self, length=20, include_digits=True, lower_case=False):
    pool = string.ascii_letters + string.digits if include_digits else string.ascii_letters
    random_str = "".join(_draw(self, pool, length))
    return random_str.lower() if lower_case else random_str


def _random_hex(self, length=8):
    return "".join(_draw(self, "0123456789abcdef", length))


def _receipt_handle():
    return "".join(_draw(mock_random, string.ascii_lowercase, 185))


def _draws_as_choice_does():
    for pool in (string.ascii_letters + string.digits, string.ascii_lowercase, "0123456789abcdef"):
        for seed in range(5):
            a, b = MotoRandom(seed), MotoRandom(seed)
            if _draw(a, pool, 300) != [b.choice(pool) for _ in range(300)]:
                return False
            if a.getrandbits(32) != b.getrandbits(32):
                return False
    return True


if "".join(map(str, HEX_CHARS)) == "0123456789abcdef" and _draws_as_choice_does():
    MotoRandom.get_random_string = _random_string
    MotoRandom.get_random_hex = _random_hex
    sqs_models.generate_receipt_handle = _receipt_handle

# ListObjects serialises each key's LastModified from its ISO-8601 string by parsing it back
# with dateutil (tens of microseconds a key) and formatting it; the same string always gives
# the same text, and a listing shows mostly the same keys again.
from moto.core.serialize import TimestampSerializer  # noqa: E402

_convert_timestamp = TimestampSerializer._convert_timestamp_to_str
_FULL_ISO8601 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)\Z")
_timestamp_texts = {}


def _cached_convert_timestamp(self, value, timestamp_format):
    if type(value) is not str or not _FULL_ISO8601.match(value):
        return _convert_timestamp(self, value, timestamp_format)
    key = (type(self), value, timestamp_format)
    text = _timestamp_texts.get(key, _timestamp_texts)
    if text is _timestamp_texts:
        text = _convert_timestamp(self, value, timestamp_format)
        if len(_timestamp_texts) >= 16384:
            _timestamp_texts.clear()
        _timestamp_texts[key] = text
    return text


TimestampSerializer._convert_timestamp_to_str = _cached_convert_timestamp

# Flask in debug mode (moto's) gave every request's empty `files` a class of its own, made per
# request, whose lookups explain a missing upload; one such class per original class, finding
# its request on the instance, does the same.
from flask import debughelpers as flask_debughelpers  # noqa: E402

_explaining_files_classes = {}


def _attach_enctype_error_multidict(request):
    oldcls = request.files.__class__
    newcls = _explaining_files_classes.get(oldcls)
    if newcls is None:

        class newcls(oldcls):
            def __getitem__(self, key):
                try:
                    return super().__getitem__(key)
                except KeyError as e:
                    request = self._debug_request
                    if key not in request.form:
                        raise

                    raise flask_debughelpers.DebugFilesKeyError(request, key).with_traceback(
                        e.__traceback__
                    ) from None

        newcls.__name__ = oldcls.__name__
        newcls.__module__ = oldcls.__module__
        _explaining_files_classes[oldcls] = newcls
    request.files._debug_request = request
    request.files.__class__ = newcls


flask_debughelpers.attach_enctype_error_multidict = _attach_enctype_error_multidict

# moto asks each request for its full URL, which werkzeug rebuilds by quoting and unquoting its
# parts; the same parts always give the same URL, and SDK calls repeat them (POST / for every
# JSON and query call).
from werkzeug.sansio import request as sansio_request  # noqa: E402

sansio_request.get_current_url = lru_cache(maxsize=4096)(sansio_request.get_current_url)

from moto.server import main  # noqa: E402

main(sys.argv[1:])
