from django.contrib.auth import views as auth_views
from django.urls import path

from bestsellers import views

urlpatterns = [
    path("login", auth_views.LoginView.as_view(extra_context={"title": "Sign in", "nav": "login"}), name="login"),
    path("logout", auth_views.LogoutView.as_view(), name="logout"),
    path("lists/<slug:name>", views.list_page, name="list"),
    path("healthz", views.healthz, name="healthz"),
]
