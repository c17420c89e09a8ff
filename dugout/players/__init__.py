"""Players' careers, the league's leaders and its records: reads over the per-match rows
(matches.models.PlayerMatch, MatchTeam), the stats as the league's ruleset declares them
(campaigns/rulesets/stats.py). Wiring: it reads matches and teams."""
