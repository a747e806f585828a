from django.conf import settings


def site(request):
    """What the layout of every page needs besides the user: the sample-catalog banner."""
    return {"sample_data": settings.WISHLIST_SAMPLE_DATA}
