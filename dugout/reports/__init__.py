"""The weekly league report's content (the commissioner's newsletter): the week's facts as plain data.

`build_report(league=, week_start=, week_end=)` (content.py) returns a JSON-serialisable dict for the week
[week_start, week_end); the page, the e-mail (HTML and text) and the feed render it. The league's ruleset says
which sections its report has and in which order (`Ruleset.weekly_report_sections`, campaigns/rulesets/<key>/report.py)
and words what differs per game (`Ruleset.words`); this package has one builder per section name
(sections.py) and never asks which game it is.

- week.py: `Week`, everything the report reads, loaded in a fixed number of queries;
- results.py: results, the table, fixtures, the headline;
- players.py: leaderboards, MVPs, improvements;
- injuries.py: in memoriam, serious injuries;
- gil.py: the money sections (treasury, team value, fan factor, sponsorships, stadiums, expensive mistakes);
- games.py: the sections only one game lists (ElfBall's Goal Points, Bone Cruncher's wounds);
- sections.py: the catalogue; content.py: `build_report`.
"""

from dugout.reports.content import build_report

__all__ = ["build_report"]
