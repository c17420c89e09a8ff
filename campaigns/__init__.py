"""The games' rules: one pure-Python package per ruleset, and the registry that code elsewhere asks."""
