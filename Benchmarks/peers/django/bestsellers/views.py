"""The list page: GET /lists/<name>, the current edition of a best-seller list, for a signed-in user.

It does what our app's CatalogController.show does for the current edition: the list and its
books in rank order (or by weeks on the list with ?sort=weeks), the date of the edition before
(for the "Previous edition" link and the movement of books the API gives no last-week rank), the
user's wishlist marks and count, and their favourite lists (the star).
"""
from django.core.exceptions import PermissionDenied
from django.db.models import Max, OuterRef, Subquery
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.contrib.auth.decorators import login_required
from django.views.decorators.cache import never_cache

from .models import Book, CatalogList, Edition, EditionEntry, FavoriteList, ListEntry, WishlistItem, WishlistUser


def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


@never_cache
@login_required
def list_page(request, name):
    sort = request.GET.get("sort", "")
    if sort not in ("", "rank", "weeks"):
        return HttpResponseBadRequest("Lists can be sorted by rank or by weeks on the list.")
    listing = get_object_or_404(CatalogList, name_encoded=name, is_current=True, published_date__isnull=False)
    member = _member(request.user)

    entries = list(ListEntry.objects.filter(list=listing).select_related("book").order_by("rank"))
    previous = (
        Edition.objects.filter(list=listing, published_date__lt=listing.published_date)
        .aggregate(date=Max("published_date"))["date"]
    )
    on_wishlist = dict(
        WishlistItem.objects.filter(user=member, book_id__isnull=False).values_list("book_id", "id")
    )
    wishlist_count = WishlistItem.objects.filter(user=member).count()
    favorites = set(FavoriteList.objects.filter(user=member).values_list("list_name_encoded", flat=True))
    earlier = _earlier_appearances(listing, [entry.book_id for entry in entries if entry.rank_last_week == 0])

    for entry in entries:
        entry.movement = _movement(entry, earlier.get(entry.book_id), previous)
        entry.wishlist_item = on_wishlist.get(entry.book_id)
    if sort == "weeks":
        entries.sort(key=lambda entry: (-entry.weeks_on_list, entry.rank))

    return render(request, "bestsellers/list.html", {
        "title": listing.display_name,
        "nav": "lists",
        "listing": listing,
        "is_favorite": listing.name_encoded in favorites,
        "entries": entries,
        "sort": sort or "rank",
        "previous": previous,
        "wishlist_count": wishlist_count,
        "return_to": request.get_full_path(),
    })


def _member(user):
    """Our app's user row for the signed-in Django user: the same username."""
    try:
        return WishlistUser.objects.get(username_key=user.get_username().lower())
    except WishlistUser.DoesNotExist:
        raise PermissionDenied("No user of that name in the app's database.") from None


def _earlier_appearances(listing, book_ids):
    """For books the API gives no last-week rank: the last edition before the current one that
    each was on, and its rank there, as {book id: (date, rank)}."""
    if not book_ids:
        return {}
    before = EditionEntry.objects.filter(
        list=listing, book=OuterRef("pk"), published_date__lt=listing.published_date
    ).order_by("-published_date")
    rows = (
        Book.objects.filter(pk__in=book_ids)
        .annotate(earlier_date=Subquery(before.values("published_date")[:1]),
                  earlier_rank=Subquery(before.values("rank")[:1]))
        .values_list("pk", "earlier_date", "earlier_rank")
    )
    return {book: (date, rank) for book, date, rank in rows if date is not None}


def _movement(entry, earlier, previous):
    """How the book moved since the edition before, as our app's Movement decides it: the API's
    last-week rank when it gives one; otherwise a book on the edition just before moved from its
    rank there, and one seen earlier (or counted more than a week on the list) is returning."""
    if entry.rank_last_week:
        return _between(entry.rank_last_week, entry.rank)
    if earlier is not None and earlier[0] == previous:
        return _between(earlier[1], entry.rank)
    if earlier is not None or entry.weeks_on_list > 1:
        return {"kind": "returning", "amount": 0}
    return {"kind": "new", "amount": 0}


def _between(before, now):
    if before > now:
        return {"kind": "up", "amount": before - now}
    if before < now:
        return {"kind": "down", "amount": now - before}
    return {"kind": "same", "amount": 0}
