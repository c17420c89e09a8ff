"""The forms of the match pages, one module per form (and per kind of result form). They only shape what people
type into the bodies the services take (api-v1 "Matches", "Result body", "Post-match sequence"); the services and
the rules decide, and their refusals are shown back on the form, in words, next to the field they name.

`RESULT_FORMS` is the catalogue of result forms keyed by the KIND a ruleset declares (`Ruleset.result_form`)."""

from __future__ import annotations

from .result_counters import ResultForm
from .result_goals import ElfBallResultForm
from .result_wounds import BoneCruncherResultForm

RESULT_FORMS = {
    "player_counters": ResultForm,
    "goals_on_field": ElfBallResultForm,
    "wounds_by_area": BoneCruncherResultForm,
}
