"""Run a command so that `make run`'s Ctrl-C stops it cleanly: `python scripts/warm_stop.py COMMAND [ARGS…]`.

honcho stops a process by signalling its whole process group. For the Celery worker that group holds the pool's
child processes too: each died of the SIGTERM at once, the worker logged an ERROR line per child ("Process
'ForkPoolWorker-1' … exited with 'signal 15 (SIGTERM)'") and then overran honcho's 5 s grace to be killed.
Here the command runs in a session of its own, and a SIGTERM or SIGINT to this process is passed on to the
command's main process alone: the worker's warm shutdown then stops its pool itself, and it exits 0.
Exits with the command's status (0 when the command ended on the signal it was passed).
"""

from __future__ import annotations

import signal
import subprocess
import sys


def run(command: list[str]) -> int:
    child = subprocess.Popen(command, start_new_session=True)  # noqa: S603 (the Procfile's own command line)
    stopping = False

    def pass_on(signum, frame) -> None:
        nonlocal stopping
        if not stopping:  # once: a second Celery SIGTERM would not hurry it, a second SIGINT would be cold
            stopping = True
            child.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, pass_on)
    signal.signal(signal.SIGINT, pass_on)
    code = child.wait()
    return 0 if stopping and code == -signal.SIGTERM else code


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: warm_stop.py COMMAND [ARGS…]")
    sys.exit(run(sys.argv[1:]))
