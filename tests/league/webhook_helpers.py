"""Shared by the webhook tests (issue 14, webhooks): a league with two full teams, a result played through the
API, and a local HTTP receiver on 127.0.0.1 answering what the test asks and recording what it was sent."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.matches.conftest import full_team


def teams(league, coach, other_coach):
    return full_team(league, coach, "Home"), full_team(league, other_coach, "Away")


def play(api_as, league, home, away, submitter, confirmer, players=()) -> int:
    r = api_as(submitter).post("/api/v1/matches/", {"league": league.pk, "teams": [home.pk, away.pk]}, format="json")
    assert r.status_code == 201, r.json()
    match_id = r.json()["id"]
    casualties = sum(1 for p in players if p.get("injury"))
    body = {
        "teams": [{"team": home.pk, "score": 0, "casualties_inflicted": casualties}, {"team": away.pk, "score": 0}],
        "players": list(players),
    }
    r = api_as(submitter).post(f"/api/v1/matches/{match_id}/result/", body, format="json")
    assert r.status_code == 201, r.json()
    r = api_as(confirmer).post(f"/api/v1/matches/{match_id}/confirm/")
    assert r.status_code == 200, r.json()
    return match_id


class Receiver:
    """An HTTP server in a thread: answers each POST with the next code of `codes` (then the last one again)."""

    def __init__(self, codes=(200,)):
        self.codes = list(codes)
        self.seen: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.seen.append({"headers": dict(self.headers), "raw": raw, "body": json.loads(raw)})
                code = receiver.codes.pop(0) if len(receiver.codes) > 1 else receiver.codes[0]
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
