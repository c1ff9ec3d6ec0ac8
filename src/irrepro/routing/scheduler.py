"""Is a Dask scheduler listening at an address? A quick probe before a client connects to it.

``irrepro routing grid --scheduler tcp://HOST:PORT`` hands the address to a Dask client. Pointed at
something else, the client does not fail well: an HTTP server that answers has its reply read as
the length of a Dask frame ("HTTP/1.0" is a 3 EiB frame: out of memory), and one that waits for a
request leaves the client waiting for a handshake that never comes. :func:`check_scheduler` asks
first, in a few seconds at most:

1. a TCP connection within ``timeout`` seconds (a closed port, an unknown host or a filtered one
   are told apart);
2. a Dask handshake: a Dask server speaks first, so the first bytes must arrive unasked within
   ``timeout`` and be a Dask frame header (distributed's TCP comm: the message's length as an
   unsigned 64-bit integer, then its frame count, both little-endian on the platforms Dask runs on).

Only TCP addresses are probed (``tcp://``, or ``HOST:PORT`` when TCP is Dask's default scheme);
others (``tls://``, ``ucx://``, ``inproc://``) go to the client as they are.
"""

from __future__ import annotations

import socket
import struct

__all__ = ["SchedulerError", "check_scheduler", "PROBE_TIMEOUT", "MAX_HANDSHAKE_BYTES"]

#: seconds to wait for the connection, and again for the scheduler's first bytes
PROBE_TIMEOUT = 5.0
#: a Dask handshake (a small dict of versions and options) is far below this many bytes
MAX_HANDSHAKE_BYTES = 1 << 20
_HEADER = struct.Struct("<QQ")  # the message's length, then its number of frames


class SchedulerError(ValueError):
    """The address given for a Dask scheduler does not lead to one; the message names it."""


def _tcp_host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of a TCP address as Dask reads it; None for other schemes."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address, strict=False)
        if scheme != "tcp":
            return None
        host, port = parse_host_port(location)
    except ValueError as error:  # no port, a bad IPv6 form
        raise SchedulerError(f"{address!r} is not a scheduler address such as tcp://host:8786 ({error})") from None
    return host, int(port)


def _connect(address: str, host: str, port: int, timeout: float) -> socket.socket:
    try:
        return socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise SchedulerError(f"nothing listens at {address} (connection refused): is the scheduler running, "
                             "and is this its address and port?") from None
    except socket.gaierror as error:
        raise SchedulerError(f"the host of {address} is unknown ({error.strerror})") from None
    except TimeoutError:
        raise SchedulerError(f"no connection to {address} within {timeout:g} s (connect timeout): the host "
                             "does not answer, or a firewall drops the connection") from None
    except OSError as error:
        raise SchedulerError(f"cannot connect to {address}: {error.strerror or error}") from None


def _looks_like_dask(first_bytes: bytes) -> bool:
    if len(first_bytes) < _HEADER.size:
        return False
    length, frames = _HEADER.unpack(first_bytes[: _HEADER.size])
    return _HEADER.size <= length <= MAX_HANDSHAKE_BYTES and 1 <= frames <= 64


def _first_bytes(connection: socket.socket, size: int) -> bytes:
    received = b""
    while len(received) < size:
        block = connection.recv(size - len(received))
        if not block:
            break
        received += block
    return received


def check_scheduler(address: str, *, timeout: float = PROBE_TIMEOUT) -> None:
    """Check that a Dask scheduler answers at ``address`` (see the module docstring).

    Takes at most twice ``timeout`` seconds. Non-TCP addresses are not probed.

    Parameters
    ----------
    address : str
        The scheduler's address (``tcp://host:8786``).
    timeout : float, default PROBE_TIMEOUT
        Seconds to wait for the connection and for the handshake.

    Raises
    ------
    SchedulerError
        Unless a Dask scheduler answers: nothing listens, another server answers, or no handshake
        comes in time.
    """
    host_port = _tcp_host_port(address)
    if host_port is None:
        return
    not_dask = f"{address} is not a Dask scheduler"
    with _connect(address, *host_port, timeout) as connection:
        try:
            first = _first_bytes(connection, _HEADER.size)
        except TimeoutError:
            raise SchedulerError(f"{not_dask}: it accepted the connection but sent no Dask handshake within "
                                 f"{timeout:g} s (an HTTP server or another service?); give the scheduler's "
                                 "address, e.g. tcp://host:8786") from None
        except OSError as error:
            raise SchedulerError(f"{not_dask}: the connection broke before a handshake ({error})") from None
    if not _looks_like_dask(first):
        shown = first.decode("ascii", "backslashreplace")
        raise SchedulerError(f"{not_dask}: it answered {shown!r}, not a Dask handshake (an HTTP server or another "
                             "service?); give the scheduler's address, e.g. tcp://host:8786")
