"""Loading the rulesets' shipped rosters (campaigns/rulesets/<key>/data/rosters.json) into the database.

Used by the data migration (so a freshly migrated database holds them) and by `manage.py load_rosters`
after the shipped data changes. It adds and updates shipped rosters and positions; it never deletes
what a commissioner added in the admin.
"""

from __future__ import annotations

from campaigns.rulesets import REGISTRY

_POSITION_FIELDS = {"key", "name", "min", "max", "cost", "attributes", "skills", "skill_access"}


def sync_rosters(roster_model, position_model) -> int:
    """Upsert every shipped roster; takes the models as arguments so migrations can pass historical ones."""
    count = 0
    for ruleset in REGISTRY.values():
        for data in ruleset.roster_data():
            extra = {k: v for k, v in data.items() if k not in ("key", "name", "positions")}
            roster, _ = roster_model.objects.update_or_create(
                ruleset=ruleset.key, key=data["key"], defaults={"name": data["name"], "extra": extra}
            )
            for order, pos in enumerate(data["positions"]):
                position_model.objects.update_or_create(
                    roster=roster,
                    key=pos["key"],
                    defaults={
                        "name": pos["name"],
                        "min_count": pos["min"],
                        "max_count": pos["max"],
                        "cost": pos["cost"],
                        "attributes": pos.get("attributes", {}),
                        "skills": pos.get("skills", []),
                        "skill_access": pos.get("skill_access", {}),
                        "extra": {k: v for k, v in pos.items() if k not in _POSITION_FIELDS},
                        "order": order,
                    },
                )
            count += 1
    return count
