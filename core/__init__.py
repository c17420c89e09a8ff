"""Dugout's toolkit: domain-free pieces every app's API and pages use (like healthchecks' `hc/lib`) — the API's
error shape and parsers, idempotency keys, the input guard, paging, charts and template tags. It may import the
league domain's models and policy, never teams, matches or the project (docs/architecture.md)."""
