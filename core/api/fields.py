"""Input fields stricter than DRF's defaults, where the schema says more than DRF checks."""

from __future__ import annotations

from rest_framework import serializers


class TextField(serializers.CharField):
    """A string, and only a string: DRF's CharField turns a number or a boolean into its text, which the schema
    (type: string) refuses — a client sending `{"reason": 5}` has made a mistake, answered 400."""

    default_error_messages = {"invalid": "Must be text (a JSON string)."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
