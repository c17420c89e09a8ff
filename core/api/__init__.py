"""The API toolkit every app's endpoints share: the error shape, lookups, parsers, fields, filters, pagination,
permissions, the schema's conventions and token authentication (../shared/docs/api-v1.md)."""
