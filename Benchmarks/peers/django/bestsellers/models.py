"""Our app's tables, as unmanaged Django models: Django reads and never migrates them.

The schema is our app's (Sources/WishlistCore/Storage/Migrations.swift); only the columns the list
page needs are declared. Tables with a composite primary key use Django 5.2's CompositePrimaryKey.
All of them live in the `wishlist` database (see routers.py).
"""
from django.db import models


class WishlistUser(models.Model):
    """A row of our `user` table. The peer's Django user of the same username maps onto it."""

    username = models.TextField()
    username_key = models.TextField(unique=True)  # lower-cased username
    default_list = models.TextField(null=True)
    is_admin = models.BooleanField()

    class Meta:
        managed = False
        db_table = "user"


class CatalogList(models.Model):
    name_encoded = models.TextField(primary_key=True)
    display_name = models.TextField()
    frequency = models.TextField()  # "WEEKLY" or "MONTHLY"
    is_current = models.BooleanField()
    published_date = models.DateField(null=True)  # the current edition
    fetched_at = models.DateTimeField(null=True)

    class Meta:
        managed = False
        db_table = "catalog_list"

    @property
    def frequency_label(self):
        return "Monthly" if self.frequency == "MONTHLY" else "Weekly"

    @property
    def period(self):
        """The time between editions, as a sentence names it ("since last week")."""
        return "month" if self.frequency == "MONTHLY" else "week"


class Book(models.Model):
    id = models.TextField(primary_key=True)
    title = models.TextField()
    author = models.TextField()
    description = models.TextField()
    image_url = models.TextField(null=True)
    image_width = models.IntegerField()
    image_height = models.IntegerField()

    class Meta:
        managed = False
        db_table = "book"

    @property
    def cover(self):
        """As our app shows it: a cover of unknown size in a typical jacket's box; no image at all
        gets the placeholder (url "")."""
        if not self.image_url:
            return {"url": "", "width": 128, "height": 193}
        if self.image_width <= 0 or self.image_height <= 0:
            return {"url": self.image_url, "width": 128, "height": 193}
        return {"url": self.image_url, "width": self.image_width, "height": self.image_height}


class ListEntry(models.Model):
    """A book on a list's current edition."""

    pk = models.CompositePrimaryKey("list", "rank")
    list = models.ForeignKey(CatalogList, models.DO_NOTHING, db_column="list_name_encoded", related_name="entries")
    rank = models.IntegerField()
    book = models.ForeignKey(Book, models.DO_NOTHING, db_column="book_id", related_name="+")
    rank_last_week = models.IntegerField()  # 0: the API does not say
    weeks_on_list = models.IntegerField()

    class Meta:
        managed = False
        db_table = "list_entry"


class Edition(models.Model):
    """One stored edition of a list (the current one and the history)."""

    pk = models.CompositePrimaryKey("list", "published_date")
    list = models.ForeignKey(CatalogList, models.DO_NOTHING, db_column="list_name_encoded", related_name="editions")
    published_date = models.DateField()

    class Meta:
        managed = False
        db_table = "edition"


class EditionEntry(models.Model):
    """A book on a stored edition of a list."""

    pk = models.CompositePrimaryKey("list", "published_date", "rank")
    list = models.ForeignKey(CatalogList, models.DO_NOTHING, db_column="list_name_encoded", related_name="+")
    published_date = models.DateField()
    rank = models.IntegerField()
    book = models.ForeignKey(Book, models.DO_NOTHING, db_column="book_id", related_name="+")
    rank_last_week = models.IntegerField()
    weeks_on_list = models.IntegerField()

    class Meta:
        managed = False
        db_table = "edition_entry"


class FavoriteList(models.Model):
    pk = models.CompositePrimaryKey("user", "list_name_encoded")
    user = models.ForeignKey(WishlistUser, models.DO_NOTHING, db_column="user_id", related_name="favorites")
    list_name_encoded = models.TextField()

    class Meta:
        managed = False
        db_table = "favorite_list"


class WishlistItem(models.Model):
    user = models.ForeignKey(WishlistUser, models.DO_NOTHING, db_column="user_id", related_name="wishlist_items")
    # The catalog's book id, or NULL for a book imported from elsewhere.
    book_id = models.TextField(null=True)
    title = models.TextField()
    author = models.TextField()

    class Meta:
        managed = False
        db_table = "wishlist_item"
