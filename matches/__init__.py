"""Matches, results, confirmation, the roll log, pre- and post-match sequences."""
