"""An e-mail backend for worker processes under test (set through EMAIL_BACKEND in the worker's environment):
it records every message's recipient as one line of MAIL_RECORD_FILE, written and flushed to disk before the
send returns, so a worker killed afterwards has still "mailed" it. With MAIL_BLOCK_FILE set, the first message
sent in the process then blocks until that file exists: the worker is stuck between handing a mail to the
server and recording it as sent, where a test can kill it."""

from __future__ import annotations

import os
import time
from pathlib import Path

from django.core.mail.backends.base import BaseEmailBackend

_blocked_once = False


class RecordingBackend(BaseEmailBackend):
    def send_messages(self, email_messages):
        global _blocked_once
        record = Path(os.environ["MAIL_RECORD_FILE"])
        for message in email_messages:
            with open(record, "a") as out:
                for address in message.to:
                    out.write(f"{address}\n")
                out.flush()
                os.fsync(out.fileno())
            release = os.environ.get("MAIL_BLOCK_FILE")
            if release and not _blocked_once:
                _blocked_once = True
                while not Path(release).exists():
                    time.sleep(0.1)
        return len(email_messages)
