"""A Celery queue of a test's own: the given tasks routed to it while the test runs, so its worker takes only
them; the routes and the app's queue selection put back and the queue deleted from the broker afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from uuid import uuid4

from dugout.celery import app


@contextmanager
def own_queue(prefix: str, tasks: str) -> Iterator[str]:
    """Route the tasks matching `tasks` (a Celery route pattern) to a new queue named `<prefix>-<random>`."""
    name = f"{prefix}-{uuid4().hex[:12]}"
    queues = app.amqp.queues
    saved_routes = app.conf.task_routes
    saved = (None if queues._consume_from is None else dict(queues._consume_from), dict(queues._default_consume_from))
    app.conf.update(task_routes={tasks: {"queue": name}})
    try:
        yield name
    finally:
        app.conf.update(task_routes=saved_routes)
        queues._consume_from, queues._default_consume_from = saved
        queues.pop(name, None)
        with app.connection_for_write() as conn:
            conn.default_channel.queue_delete(name)
            conn.default_channel.client.delete(f"_kombu.binding.{name}")
