"""The invite link as a QR code, drawn by the server with segno (a maintained QR encoder) as an SVG image.

Why on the server: the browser used to carry its own 274-line encoder; a well-kept library is the better
owner of Reed–Solomon blocks, masks and version tables, and an ``<img>`` of a same-origin SVG needs no
markup string in the page (the CSP's ``img-src 'self'``). Why only for a room's own link: the route takes a
room code, never a text, so the server is not a QR generator for any address someone wants to dress up as
ours; the link comes from configuration (``room_link``), never from the request's Host.
"""

from __future__ import annotations

import io

import segno

# level M (15 % of the code may be damaged or covered) as before; a 4-module quiet zone (the standard's)
ERROR_LEVEL = "m"
QUIET_ZONE = 4
# one module in SVG user units: the page scales the image to its box, so this only fixes the viewBox
MODULE = 1


def qr_svg(link: str) -> bytes:
    """The QR code of ``link`` as a standalone SVG document (dark modules on white, quiet zone included)."""
    code = segno.make(link, error=ERROR_LEVEL, micro=False, boost_error=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=MODULE, border=QUIET_ZONE, dark="#000", light="#fff",
              xmldecl=False, svgns=True, title="초대 링크 QR 코드", omitsize=True)
    return out.getvalue()


def qr_matrix(link: str) -> list[list[bool]]:
    """The modules of ``link``'s QR code without the quiet zone (True = dark), for tests that decode it."""
    code = segno.make(link, error=ERROR_LEVEL, micro=False, boost_error=False)
    return [[bool(m) for m in row] for row in code.matrix]
