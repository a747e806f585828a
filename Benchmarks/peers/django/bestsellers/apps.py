from django.apps import AppConfig


class BestsellersConfig(AppConfig):
    """The list page, over our app's tables (models.py)."""

    name = "bestsellers"
    default_auto_field = "django.db.models.BigAutoField"
