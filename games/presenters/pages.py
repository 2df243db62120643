"""A long list read a page at a time (the leaderboard, the archive, the tournaments)."""

from django.http import HttpRequest


def page_of(request: HttpRequest, rows, size: int) -> tuple[list, dict]:
    """The page of ``rows`` that ``?page=`` asks for (the first when it is not a number),
    and what ``_pages.html`` needs to link the pages around it. The rows are never
    counted: one more than a page is read to know whether a next page exists, so a page
    costs the same however long the list (issue 44)."""
    try:
        number = max(1, int(request.GET.get("page", 1)))
    except ValueError:
        number = 1
    start = (number - 1) * size
    read = list(rows[start : start + size + 1])
    return read[:size], {
        "number": number,
        "has_previous": number > 1,
        "previous_page_number": number - 1,
        "has_next": len(read) > size,
        "next_page_number": number + 1,
    }
