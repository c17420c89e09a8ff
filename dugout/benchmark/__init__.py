"""The benchmark's seeding and its in-process drivers: `seed` builds the big Blitz Bowl league and
the small leagues in bulk from the rulesets' pure functions, `play` walks real matches through the services.
Wiring layer: it composes every domain, and nothing but `manage.py seed_benchmark` and benchmarks/ uses it."""
