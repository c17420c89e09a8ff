"""Notifications: what tells a user that something happened for him or waits for him — the in-app list, and its
e-mail and Web Push deliveries through an outbox. See `notifications.writer` (the one writer) and
docs/decisions/0077-notifications-and-their-outbox.md."""
