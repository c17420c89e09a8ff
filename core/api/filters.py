"""List filters: a foreign-key filter is an integer, and an id that matches nothing is an empty page.

django-filter's default for a foreign key is a ModelChoiceFilter, which answers `?league=0` with 400 ("select a
valid choice") although the schema promises an integer filter; a client filtering by an id it holds should get
the rows that match, none included. Every viewset's `filterset_fields` goes through this backend.
"""

from __future__ import annotations

from django import forms
from django.db import models
from django_filters import rest_framework as filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

_BIGINT = 2**63


@extend_schema_field(OpenApiTypes.INT)
class IdFilter(filters.Filter):
    field_class = forms.IntegerField

    def filter(self, qs, value):
        if value is not None and not -_BIGINT <= value < _BIGINT:
            # No row has such an id; and PostgreSQL would refuse the number itself.
            return qs.none()
        return super().filter(qs, value)


class IdFilterSet(filters.FilterSet):
    FILTER_DEFAULTS = {
        **filters.FilterSet.FILTER_DEFAULTS,
        models.ForeignKey: {"filter_class": IdFilter},
        models.OneToOneField: {"filter_class": IdFilter},
    }

    def is_valid(self) -> bool:
        # django-filter reads `?league=` as "no filter" and answers every row, but the schema promises an integer
        # (or an enum value): an empty filter is refused, leaving it out is how to ask for everything.
        valid = super().is_valid()
        for name in self.filters:
            if name in self.data and self.data.get(name) == "":
                self.form.add_error(name, "Leave this filter out rather than sending it empty.")
                valid = False
        return valid


class IdFilterBackend(filters.DjangoFilterBackend):
    filterset_base = IdFilterSet
