"""A long list read a page at a time (the leaderboard, the archive, the tournaments)."""

from django.http import HttpRequest

# The highest page asked for that is read as such: any page number above it is read as
# this one (past the end of any list here), never as an offset the database refuses.
LAST_PAGE = 100_000


def page_of(request: HttpRequest, rows, size: int) -> tuple[list, dict]:
    """The page of ``rows`` that ``?page=`` asks for (the first when it is not a number,
    ``LAST_PAGE`` above it),
    and what ``_pages.html`` needs to link the pages around it. The rows are never
    counted: one more than a page is read to know whether a next page exists, so a page
    costs the same however long the list (issue 44)."""
    try:
        number = min(LAST_PAGE, max(1, int(request.GET.get("page", 1))))
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
