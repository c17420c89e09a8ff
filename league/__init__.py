"""The league domain: leagues, seasons, members and their invitations, stadiums, house rules, divisions, the
audit, accounts (log-ins, tokens) and outgoing webhooks. It imports only the rules (`campaigns`); teams, matches,
the toolkit (`core`) and the project (`dugout`) sit above it (docs/architecture.md)."""
