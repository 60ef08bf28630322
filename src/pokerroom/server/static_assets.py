"""The web client's files as a phone on mobile data should get them: compressed, and never stale.

Why: the client is some fifty ES modules, a style sheet and icons, about 490 KB of text, loaded at every
visit. Sent as they were (``FileResponse``: no compression, no ``Cache-Control``, a ``Last-Modified``), a
first visit on a slow link moved all of it, and a browser kept the files by heuristic freshness, so after an
upgrade a phone could run a stale module beside a fresh one. Here each file is read once (again when it
changes on disk) and compressed once; it is sent gzip-ed to a browser that accepts it (about a fifth of the
bytes), with ``Cache-Control: no-cache`` (a browser asks again each visit, so an upgrade is seen at once) and
an ETag made from its content, the same on every node of a cluster (where file times differ), and a request
that names that ETag is answered 304 with no body.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

#: Media types for the client's own kinds of file (``mimetypes`` may not know a web manifest).
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
}

#: Files worth compressing (text); images such as PNG are compressed already.
COMPRESSIBLE = frozenset({".html", ".js", ".css", ".json", ".webmanifest", ".svg", ".txt"})

#: Revalidate every time: a visit costs one short request per file (304), never a stale module.
CACHE_CONTROL = "no-cache"


@dataclass(frozen=True)
class Asset:
    """One file as read: its bytes, compressed bytes (None: not worth it), ETag and media type, and the
    (modification time, size) it was read at, to notice a change on disk."""

    stamp: tuple[int, int]
    etag: str
    media_type: str
    raw: bytes
    gz: bytes | None


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header allows gzip (named without ``q=0``, or ``*``)."""
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        q = params.strip().lower()
        if q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"):
            return False
        return True
    return False


def names_etag(header: str | None, etag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``etag`` (a weak ``W/`` match counts; ``*`` matches all)."""
    if not header:
        return False
    tags = [t.strip() for t in header.split(",")]
    return "*" in tags or etag in (t.removeprefix("W/") for t in tags)


class StaticAssets:
    """Responses for the client's files, each file read and compressed once (again when it changes)."""

    def __init__(self) -> None:
        self._assets: dict[Path, Asset] = {}

    def load(self, path: Path) -> Asset:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
        known = self._assets.get(path)
        if known is not None and known.stamp == stamp:
            return known
        raw = path.read_bytes()
        suffix = path.suffix.lower()
        media = MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        gz = gzip.compress(raw, compresslevel=6, mtime=0) if suffix in COMPRESSIBLE else None
        if gz is not None and len(gz) >= len(raw):
            gz = None
        asset = Asset(stamp, '"' + hashlib.blake2b(raw, digest_size=12).hexdigest() + '"', media, raw, gz)
        self._assets[path] = asset
        return asset

    def response(self, request: Request, path: Path) -> Response:
        """``path`` (an existing file inside the client's folder) for ``request``: 304, gzip or as it is."""
        asset = self.load(path)
        headers = {"etag": asset.etag, "cache-control": CACHE_CONTROL}
        if asset.gz is not None:
            headers["vary"] = "Accept-Encoding"
        if names_etag(request.headers.get("if-none-match"), asset.etag):
            return Response(status_code=304, headers=headers)
        if asset.gz is not None and accepts_gzip(request.headers.get("accept-encoding")):
            headers["content-encoding"] = "gzip"
            return Response(asset.gz, media_type=asset.media_type, headers=headers)
        return Response(asset.raw, media_type=asset.media_type, headers=headers)
