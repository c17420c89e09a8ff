"""The matches app's models, one module per concern; every model is importable from `matches.models`."""

from .extensions import Extension
from .match import (
    PLAYER_ROW_FACTS,
    Aftermath,
    Dispute,
    DraftEvent,
    Inducement,
    Match,
    MatchDraft,
    MatchTeam,
    PlayerMatch,
    Prematch,
    Roll,
)
from .schedules import Schedule, ScheduleRound
from .tally import PlayerSeason
from .times import MatchReminder, TimeProposal

__all__ = (
    "PLAYER_ROW_FACTS",
    "Aftermath",
    "Dispute",
    "DraftEvent",
    "Extension",
    "Inducement",
    "Match",
    "MatchDraft",
    "MatchReminder",
    "MatchTeam",
    "PlayerMatch",
    "PlayerSeason",
    "Prematch",
    "Roll",
    "Schedule",
    "ScheduleRound",
    "TimeProposal",
)
