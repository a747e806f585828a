"""The WSGI application gunicorn serves: `gunicorn peer.wsgi`."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "peer.settings")

application = get_wsgi_application()
