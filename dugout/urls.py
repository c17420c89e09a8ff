from django.conf import settings
from django.contrib import admin
from django.http import JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("dugout.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's init script as a file (?script), and our template drops the inline
    # <style>: the page then runs under the Content-Security-Policy's script-src/style-src 'self'.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html"),
        name="api-docs",
    ),
    path("", include("dugout.web.urls")),
]

# The benchmark's yardstick (benchmarks/settings.py): a bare JsonResponse through the same middleware.
if getattr(settings, "BENCHMARK_VIEWS", False):
    urlpatterns.insert(0, path("bench/bare/", lambda request: JsonResponse({"ok": True})))
