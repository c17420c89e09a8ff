"""Print the address `make run` serves, once the web server answers there.

Started beside the server by the Procfile's `web` line with the same `PORT`, so the address printed is the one
really served (not a default written in a message before the server is up). Exits once it has printed; gives
up, saying so, if nothing answers within a minute (the server's own lines then say why).
"""

from __future__ import annotations

import sys
import time
import urllib.error
import urllib.request
from typing import TextIO


def wait_and_announce(port: int, *, timeout: float = 60.0, interval: float = 0.25, out: TextIO = sys.stdout) -> bool:
    url = f"http://127.0.0.1:{port}/"
    probe = f"{url}favicon.ico"  # answers without the database: the first answer is not a page's render
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(probe, timeout=2).close()  # noqa: S310 (always http://127.0.0.1)
        except urllib.error.HTTPError:
            pass  # any HTTP status means the server answers
        except OSError:
            if time.monotonic() >= deadline:
                said = f"Dugout did not answer at {url} within {timeout:.0f} s: see the web lines."
                print(said, file=out, flush=True)
                return False
            time.sleep(interval)
            continue
        print(f"Dugout is at {url}", file=out, flush=True)
        return True


if __name__ == "__main__":
    sys.exit(0 if wait_and_announce(int(sys.argv[1]) if len(sys.argv) > 1 else 8000) else 1)
