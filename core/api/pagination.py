"""The API's pages (api-v1: list endpoints answer `count`, `next`, `previous`, `results`).

DRF reads a missing *and* an empty `?page=` as page 1 and a non-number as a missing page (404). The schema says
`page` is an integer, so anything present that is not a whole number from 1 is the caller's mistake: a 400
naming the parameter. A whole number past the last page stays DRF's 404 ("Invalid page.").
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    def get_page_number(self, request, paginator):
        number = request.query_params.get(self.page_query_param)
        if number is None or number in self.last_page_strings:
            return super().get_page_number(request, paginator)
        if not (number.isascii() and number.isdigit() and int(number) >= 1):
            raise ValidationError({self.page_query_param: ["A page is a whole number from 1."]})
        return number
