"""The benchmark's settings: the project's own (as the environment sets them: DEBUG off, PostgreSQL, Redis),
plus the bare `JsonResponse` view every figure is compared with (dugout/urls.py wires it only here)."""

from dugout.settings import *  # noqa: F403

BENCHMARK_VIEWS = True
