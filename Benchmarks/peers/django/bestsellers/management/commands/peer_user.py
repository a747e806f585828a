"""`manage.py peer_user USERNAME --password-stdin`: makes the Django user that signs in to the peer
(or gives it that password), and checks that our app's database has a user of the same name, the
one whose wishlist the peer shows."""
import sys

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from bestsellers.models import WishlistUser


class Command(BaseCommand):
    help = "Creates the peer's Django user (or sets its password) for a user of our app's database."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--password-stdin", action="store_true", help="read the password from the first line of standard input")

    def handle(self, *args, username, password_stdin, **options):
        if not password_stdin:
            raise CommandError("give the password on standard input, with --password-stdin")
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise CommandError("no password on standard input")
        if not WishlistUser.objects.filter(username_key=username.lower()).exists():
            raise CommandError(f"the app's database has no user {username!r}: create it there first (wishlist user create)")
        user, created = get_user_model().objects.get_or_create(username=username)
        if created or not user.check_password(password):
            user.set_password(password)
            user.save()
        self.stdout.write(f"{'created' if created else 'kept'} Django user {username!r}")
