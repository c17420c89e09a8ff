"""The public REST API v1's router and its endpoints that read several domains (../shared/docs/api-v1.md)."""
