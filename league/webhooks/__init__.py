"""Outgoing webhooks: a league's commissioner points Discord, Slack or a signed-JSON receiver at
the league's events (`result_confirmed`, `report_published`, `player_died`).

An event writes one outbox row per interested hook (`WebhookDelivery`, unique per hook and event key) in the
event's own transaction, and queues the delivery task when that transaction commits (`emit`); a Celery worker
claims the row, posts it (`deliver`) and records the answer. Receivers' URLs are checked to be public both when
a hook is made and at each delivery (`guard`)."""
