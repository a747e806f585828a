"""Sends this app's models to our app's database, and keeps `migrate` away from it: the peer
migrates only its own tables (auth, sessions, content types) in the `default` database."""

WISHLIST = "wishlist"
APP = "bestsellers"


class WishlistRouter:
    def db_for_read(self, model, **hints):
        return WISHLIST if model._meta.app_label == APP else None

    def db_for_write(self, model, **hints):
        return WISHLIST if model._meta.app_label == APP else None

    def allow_relation(self, first, second, **hints):
        if first._meta.app_label == APP and second._meta.app_label == APP:
            return True
        return None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        if db == WISHLIST or app_label == APP:
            return False
        return None
