"""The public REST API v1 (../shared/docs/api-v1.md)."""
