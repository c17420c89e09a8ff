"""`make run` prints the address it really serves: `scripts/announce.py` (started by the Procfile's web line with
the same PORT) prints it only once a server answers on that port and the worker is up, with the logins, last;
and says so when none answers."""

from __future__ import annotations

import importlib.util
import io
import re
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from django.conf import settings

spec = importlib.util.spec_from_file_location("announce", Path(settings.BASE_DIR) / "scripts" / "announce.py")
announce = importlib.util.module_from_spec(spec)
spec.loader.exec_module(announce)


class NotFound(BaseHTTPRequestHandler):
    def do_GET(self):  # any status is an answer: the server is up
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = HTTPServer(("127.0.0.1", 0), NotFound)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def test_the_address_is_printed_with_the_port_that_answers(server):
    out = io.StringIO()
    assert announce.wait_and_announce(server, timeout=10, out=out, worker=lambda: True, footer=str)
    assert out.getvalue().splitlines()[0] == f"Dugout is at http://127.0.0.1:{server}/"


def test_the_address_and_logins_come_once_the_worker_is_up_and_last(server):
    """The worker's wait comes before anything is printed: its start-up and the demo's mails come first."""
    out = io.StringIO()
    waited = []

    def worker():
        waited.append(out.getvalue())
        return True

    assert announce.wait_and_announce(server, timeout=10, out=out, worker=worker)
    assert waited == [""]
    lines = out.getvalue().splitlines()
    assert lines[0] == f"Dugout is at http://127.0.0.1:{server}/"
    assert any("commissioner / dugout-demo" in line for line in lines)
    assert "Ctrl-C" in lines[-1]


def test_a_worker_that_never_answers_is_said_and_the_address_printed_all_the_same(server):
    out = io.StringIO()
    assert announce.wait_and_announce(server, timeout=10, out=out, worker=lambda: False, footer=str)
    printed = out.getvalue()
    assert printed.startswith(f"Dugout is at http://127.0.0.1:{server}/") and "worker did not answer" in printed


def test_nothing_answering_is_said_instead_of_an_address():
    free = HTTPServer(("127.0.0.1", 0), NotFound)
    port = free.server_address[1]
    free.server_close()  # the port is now closed: nothing answers there
    out = io.StringIO()
    assert not announce.wait_and_announce(port, timeout=0, out=out)
    assert out.getvalue().startswith(f"Dugout did not answer at http://127.0.0.1:{port}/")


def test_the_procfile_web_line_announces_and_serves_the_same_port():
    lines = (Path(settings.BASE_DIR) / "Procfile").read_text().splitlines()
    web = next(line for line in lines if line.startswith("web:"))
    assert "scripts/announce.py ${PORT:-8000}" in web and "runserver 127.0.0.1:${PORT:-8000}" in web


def test_the_readme_documents_port_and_links_only_to_files_in_the_repository():
    root = Path(settings.BASE_DIR).resolve()
    readme = (root / "README.md").read_text()
    assert "| `PORT` | `8000` |" in readme
    for target in re.findall(r"\]\(([^)#]+)", readme):
        if "://" in target:
            continue
        path = (root / target).resolve()
        assert path.is_relative_to(root) and path.exists(), target
