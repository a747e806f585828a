#!/usr/bin/env python3
"""Django's command-line utility for the peer (migrate, peer_user, check, shell...).

Needs WISHLIST_PEER_DATABASE (our SQLite file) and WISHLIST_PEER_STATE (a directory for the
peer's own database and secret key) in the environment; run.py sets both."""
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "peer.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
