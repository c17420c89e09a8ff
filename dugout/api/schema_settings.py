"""The OpenAPI schema's settings (drf-spectacular's SPECTACULAR_SETTINGS), kept beside the API they describe:
plain data, no environment, read by dugout/settings.py."""

API_SCHEMA_SETTINGS = {
    "TITLE": "Dugout API",
    "DESCRIPTION": "League and campaign management for Blitz Bowl, ElfBall and Bone Cruncher.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The contract's bodies are JSON; the form parsers stay for browsers but are not the API's promise.
    "PARSER_WHITELIST": ["core.api.parsers.BoundedJSONParser"],
    # Swagger UI served from our own static files (drf-spectacular-sidecar), never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "MembershipRoleEnum": "league.models.Membership.Role",
        "PlayerRoleEnum": "teams.models.Player.Role",
        # The schedules' formats (dugout/api/schedules.py takes their values), and a withdrawal's or a late
        # entry's: the formats whose teams can change.
        "ScheduleFormatEnum": ["round_robin", "knockout", "swiss"],
        "ChangeableScheduleFormatEnum": ["round_robin", "swiss"],
        # A webhook's kind: not the match's or the ledger entry's "kind".
        "WebhookKindEnum": "league.models.webhooks.Webhook.Kind",
        "MatchKindEnum": "matches.models.Match.Kind",
        # A match's status: not a season's, a transfer's or an invitation's.
        "MatchStatusEnum": "matches.lifecycle.Status",
    },
}
