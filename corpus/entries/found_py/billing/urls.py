from django.urls import path

from billing import views

urlpatterns = [
    path("refunds/retry/", views.retry_refund),
]
