"""Which address a room's invite link uses, and which ``Host`` names the server answers to.

Why a module of its own: the link a host shares must open on a friend's phone, and the names the server
accepts must not follow whatever a browser was told by a hostile DNS server (DNS rebinding: a page on
``evil.example`` whose name suddenly resolves to 127.0.0.1 talks to us with ``Host: evil.example``). Both are
decided once, from configuration only (``--public-url``, the listen address, ``--allowed-host``), never
from a request's ``Host`` header.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

LOOPBACK_NAMES: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")
WILDCARD_HOSTS: frozenset[str] = frozenset({"", "0.0.0.0", "::", "[::]", "*"})

# Addresses a UDP socket is "connected" to only to learn the local address the OS would route from:
# ``connect`` on a datagram socket sends no packet. TEST-NET-1 / documentation prefixes never exist on a LAN.
_PROBE_V4 = ("192.0.2.1", 9)
_PROBE_V6 = ("2001:db8::1", 9)


class PublicUrlError(ValueError):
    """A ``--public-url`` that cannot be a link base (the message says why, for the command line)."""


def is_wildcard(host: str) -> bool:
    """Does listening on ``host`` mean every interface (``0.0.0.0`` / ``::``)?"""
    return host.strip().lower() in WILDCARD_HOSTS


def is_loopback(host: str) -> bool:
    """Is ``host`` a loopback name or address (``localhost``, ``127.x.x.x``, ``::1``)?"""
    name = host.strip().strip("[]").lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _usable_lan(addr: str) -> bool:
    try:
        ip = ipaddress.ip_address(addr.split("%", 1)[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast or ip.is_link_local)


def _probe(family: socket.AddressFamily, target: tuple[str, int]) -> str | None:
    """The local address the OS would send from towards ``target`` (a UDP ``connect``: no packet is sent)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect(target)
            addr = str(s.getsockname()[0])
    except OSError:
        return None
    return addr if _usable_lan(addr) else None


def lan_addresses() -> list[str]:
    """This machine's LAN addresses, best first (IPv4 before IPv6); empty when there is no network.

    The first comes from the routing table (a UDP socket ``connect`` that sends nothing), the rest from the
    addresses the machine's own name resolves to (no DNS traffic for the local hostname on usual set-ups;
    failures are ignored). Never raises.
    """
    found: list[str] = []
    for family, target in ((socket.AF_INET, _PROBE_V4), (socket.AF_INET6, _PROBE_V6)):
        addr = _probe(family, target)
        if addr and addr not in found:
            found.append(addr)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        infos = []
    for info in infos:
        addr = str(info[4][0])
        if _usable_lan(addr) and addr not in found:
            found.append(addr)
    found.sort(key=lambda a: ":" in a)  # stable: IPv4 first, the routed address first within a family
    return found


def url_host(host: str) -> str:
    """``host`` as it appears in a URL: IPv6 literals in brackets."""
    h = host.strip()
    if ":" in h and not h.startswith("["):
        return f"[{h}]"
    return h


def base_url(scheme: str, host: str, port: int) -> str:
    """``scheme://host[:port]`` without the scheme's default port."""
    default = {"http": 80, "https": 443}.get(scheme)
    suffix = "" if port == default else f":{port}"
    return f"{scheme}://{url_host(host)}{suffix}"


def normalize_public_url(url: str) -> str:
    """A ``--public-url`` as a link base: ``http(s)://host[:port]``, no trailing slash.

    Why no path: the web client loads ``/static/…`` and opens ``/ws/…`` from the site's root, so a proxy
    must serve this server at its root; a path prefix would give links that load a blank page.
    """
    raw = url.strip()
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https"):
        raise PublicUrlError(f"--public-url must start with http:// or https:// (got {url!r})")
    if not parts.hostname:
        raise PublicUrlError(f"--public-url has no host name (got {url!r})")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise PublicUrlError(f"--public-url must be just scheme://host[:port] (got {url!r})")
    if parts.path not in ("", "/"):
        raise PublicUrlError(f"--public-url cannot have a path: serve pokerroom at the site's root "
                             f"(got {url!r})")
    try:
        port = parts.port
    except ValueError as exc:
        raise PublicUrlError(f"--public-url has a bad port (got {url!r})") from exc
    scheme = parts.scheme
    return base_url(scheme, parts.hostname, port if port is not None else (443 if scheme == "https" else 80))


def host_of(url: str) -> str:
    """The lower-case host name of an absolute URL (IPv6 without brackets)."""
    return (urlsplit(url).hostname or "").lower()


def origin_of(url: str) -> str:
    """The origin (``scheme://host[:port]``) of an absolute URL, as browsers send it in ``Origin``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


@dataclass(frozen=True)
class Addresses:
    """What ``pokerroom serve`` tells the person starting it, and what the server will accept.

    ``open_url``: where to open the page on this machine; ``share_url``: the base of every invite link;
    ``allowed_hosts``: the ``Host`` names answered (lower-case, no port; ``*`` means any);
    ``lan_fallback``: listening on all interfaces but no LAN address was found (links use loopback).
    """

    open_url: str
    share_url: str
    allowed_hosts: frozenset[str]
    lan_fallback: bool = False


def resolve_addresses(listen_host: str, port: int, public_url: str | None = None,
                      extra_hosts: Iterable[str] = (), lan: Iterable[str] | None = None) -> Addresses:
    """Work out the open/share addresses and the ``Host`` allow-list from configuration alone.

    - loopback listen: open and share ``http://127.0.0.1:port`` (only this machine can reach it anyway);
      allowed: the loopback names.
    - all interfaces (``0.0.0.0`` / ``::``): open on loopback, share on the first LAN address; allowed:
      loopback names, every LAN address and this machine's name. With no LAN address found the link falls
      back to loopback and ``lan_fallback`` says so.
    - a specific address: open and share that address; allowed: that address.
    - ``public_url`` (a reverse proxy or tunnel) replaces the share address and adds its host.
    - ``extra_hosts`` (``--allowed-host``) are added as given (``*`` accepts any name).
    """
    host = listen_host.strip()
    allowed: set[str] = set()
    fallback = False
    if is_wildcard(host):
        lan_list = lan_addresses() if lan is None else list(lan)
        allowed.update(LOOPBACK_NAMES)
        allowed.update(a.lower() for a in lan_list)
        try:
            name = socket.gethostname().lower()
        except OSError:
            name = ""
        if name:
            allowed.update({name, f"{name}.local"})
        open_url = base_url("http", "127.0.0.1" if host != "::" and host != "[::]" else "::1", port)
        if lan_list:
            share = base_url("http", lan_list[0], port)
        else:
            share, fallback = open_url, True
    elif is_loopback(host):
        allowed.update(LOOPBACK_NAMES)
        allowed.add(host.strip("[]").lower())
        open_url = share = base_url("http", host.strip("[]"), port)
    else:
        allowed.add(host.strip("[]").lower().rstrip("."))
        open_url = share = base_url("http", host.strip("[]"), port)
    if public_url:
        share = normalize_public_url(public_url)
        allowed.add(host_of(share))
        fallback = False
    for extra in extra_hosts:
        name = extra.strip().strip("[]").lower().rstrip(".")
        if name:
            allowed.add(name)
    return Addresses(open_url=open_url, share_url=share, allowed_hosts=frozenset(allowed),
                     lan_fallback=fallback)


def split_host_header(value: str) -> str | None:
    """The host name of a ``Host`` header (lower-case, no port, IPv6 without brackets); None if malformed."""
    v = value.strip().lower()
    if not v or any(c.isspace() for c in v) or "/" in v or "@" in v:
        return None
    if v.startswith("["):
        end = v.find("]")
        if end < 0:
            return None
        name, rest = v[1:end], v[end + 1:]
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return None
        return name or None
    name, sep, port = v.partition(":")
    if sep and not port.isdigit():
        return None
    return name.rstrip(".") or None


def host_allowed(header: str | None, allowed: frozenset[str]) -> bool:
    """Is a request's ``Host`` header one of ours? A missing or malformed header never is."""
    if "*" in allowed:
        return True
    if header is None:
        return False
    name = split_host_header(header)
    return name is not None and name in allowed
