"""An e-mail backend for development: each message is written to a file of its own, `<EMAIL_FILE_PATH>/*.eml`,
and logged in one line (recipients, subject, file).

`make run` (DEBUG on) uses it by default. Django's console backend printed every message in full, HTML part and
base64 chart included: the demo's nine weekly-report mails were some 2,400 lines that buried the address and the
logins. An .eml file opens as a mail in any mail program (or a text editor), and the worker's log names it.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend

log = logging.getLogger(__name__)


class EmlFileBackend(BaseEmailBackend):
    """Writes each message to a new .eml file under `file_path` (default: the EMAIL_FILE_PATH setting) and logs
    one INFO line per message. Returns how many messages it wrote, as every backend does."""

    def __init__(self, *, file_path: str | Path | None = None, fail_silently: bool = False, **kwargs):
        super().__init__(fail_silently=fail_silently, **kwargs)
        self.directory = Path(file_path or settings.EMAIL_FILE_PATH)
        self._lock = threading.Lock()

    def send_messages(self, email_messages) -> int:
        if not email_messages:
            return 0
        sent = 0
        with self._lock:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                for message in email_messages:
                    path = self._write(message)
                    log.info("Mail to %s, %r: %s", ", ".join(message.recipients()), message.subject, path)
                    sent += 1
            except OSError:
                if not self.fail_silently:
                    raise
        return sent

    def _write(self, message) -> Path:
        """A new file named by the time and a random part, so two workers never write the same one."""
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        path = self.directory / f"{stamp}-{uuid4().hex[:8]}.eml"
        with path.open("xb") as out:
            out.write(message.message().as_bytes())
        return _shown(path)


def _shown(path: Path) -> Path:
    """The path relative to the project when it lies inside it (`var/mail/…`, what a newcomer can open)."""
    try:
        return path.relative_to(settings.BASE_DIR)
    except ValueError:
        return path
