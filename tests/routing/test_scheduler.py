"""``--scheduler``: an address that is not a Dask scheduler fails within seconds, named, exit 2.

Real servers on the loopback interface: an HTTP server (silent until it gets a request), a server
that speaks first (as an HTTP server does once it has read Dask's handshake), a closed port, and a
real Dask scheduler, which passes the probe.
"""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading

import pytest

from irrepro.routing.scheduler import SchedulerError, check_scheduler


@pytest.fixture
def http_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def talking_server():
    """Answers every connection at once with an HTTP error, as a web server does to Dask's bytes."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.sendall(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join()
    listener.close()


@pytest.fixture
def closed_port():
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


def _grid(address, tmp_path):
    argv = [sys.executable, "-m", "irrepro", "routing", "grid", "--scheduler", address, "--quiet", "--out", str(tmp_path)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=90, check=False)


@pytest.mark.parametrize("server", ["http_server", "talking_server"])
def test_an_address_that_is_not_a_dask_scheduler_is_refused_by_name(server, request, tmp_path):
    address = request.getfixturevalue(server)
    done = _grid(address, tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"irrepro routing: error: {address} is not a Dask scheduler" in done.stderr
    assert "out of memory" not in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_closed_port_is_one_clear_error(closed_port, tmp_path):
    done = _grid(closed_port, tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"nothing listens at {closed_port} (connection refused)" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_probe_waits_no_longer_than_its_timeout(http_server):
    with pytest.raises(SchedulerError, match="sent no Dask handshake within 0.5 s"):
        check_scheduler(http_server, timeout=0.5)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1", "tcp://[::1"])
def test_an_address_without_a_port_is_refused(address):
    with pytest.raises(SchedulerError, match="is not a scheduler address such as tcp://host:8786"):
        check_scheduler(address)


def test_a_real_dask_scheduler_passes_the_probe():
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        check_scheduler(cluster.scheduler_address)  # no error
        check_scheduler(cluster.scheduler_address.removeprefix("tcp://"))  # tcp is the default scheme
