"""Connecting a league to Discord (`PUT /api/v1/leagues/{id}/discord/`, the commissioner's panel), the link code
(`POST /api/v1/account/discord/code/`, the account part) and the command registration with Discord's API."""

from __future__ import annotations

import io
import json
import urllib.error
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from dugout.discord.commands import COMMANDS
from league.models import AuditEntry, DiscordApplication, DiscordLink, DiscordLinkCode
from tests.dugout.discord.conftest import command, link

pytestmark = pytest.mark.django_db

KEY = "a1" * 32


def put(client, league, body):
    return client.put(f"/api/v1/leagues/{league.pk}/discord/", body, format="json")


# --- the API -----------------------------------------------------------------------------------------------------


def test_the_commissioner_connects_the_league_and_is_told_the_interactions_url(api_as, league, commissioner):
    response = put(api_as(commissioner), league, {"application_id": "1234567890123456789", "public_key": KEY.upper()})

    assert response.status_code == 200, response.json()
    assert response.json() == {
        "application_id": "1234567890123456789",
        "public_key": KEY,
        "interactions_url": f"http://testserver/api/v1/integrations/discord/{league.pk}/interactions/",
    }
    row = DiscordApplication.objects.get(league=league)
    assert (row.application_id, row.public_key) == ("1234567890123456789", KEY)
    assert AuditEntry.objects.filter(league=league, action="discord", actor=commissioner).count() == 1

    again = put(api_as(commissioner), league, {"application_id": "42", "public_key": "b2" * 32})
    assert again.status_code == 200
    assert DiscordApplication.objects.get(league=league).application_id == "42"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"application_id": "123", "public_key": "a1" * 31}, "public_key"),
        ({"application_id": "123", "public_key": "zz" * 32}, "public_key"),
        ({"application_id": "123", "public_key": "a1" * 33}, "public_key"),
        ({"application_id": "123", "public_key": ""}, "public_key"),
        ({"application_id": "123", "public_key": 5}, "public_key"),
        ({"application_id": "123"}, "public_key"),
        ({"application_id": "12a", "public_key": KEY}, "application_id"),
        ({"application_id": "1" * 21, "public_key": KEY}, "application_id"),
        ({"application_id": 123, "public_key": KEY}, "application_id"),
    ],
)
def test_a_bad_key_or_id_is_400_naming_it_and_nothing_changes(api_as, league, commissioner, body, field):
    response = put(api_as(commissioner), league, body)

    assert response.status_code == 400
    assert field in response.json()
    assert not DiscordApplication.objects.exists() and not AuditEntry.objects.filter(action="discord").exists()


def test_a_body_that_is_not_an_object_is_400(api_as, league, commissioner):
    assert put(api_as(commissioner), league, ["x"]).status_code == 400


def test_only_the_commissioner_connects_it(api, api_as, league, coach, make_coach):
    body = {"application_id": "1", "public_key": KEY}

    assert put(api_as(make_coach(coach)), league, body).status_code == 403
    assert put(api, league, body).status_code == 401
    assert api_as(coach).put("/api/v1/leagues/99999/discord/", body, format="json").status_code == 404
    assert not DiscordApplication.objects.exists()


def test_a_link_code_is_ten_minutes_and_only_for_someone_signed_in(api, api_as, coach):
    response = api_as(coach).post("/api/v1/account/discord/code/")

    assert response.status_code == 201
    body = response.json()
    assert len(body["code"]) == 10
    expires = parse_datetime(body["expires_at"])
    assert timedelta(minutes=9) < expires - timezone.now() <= timedelta(minutes=10)
    assert DiscordLinkCode.objects.get().user == coach
    assert api.post("/api/v1/account/discord/code/").status_code == 401


# --- the registration --------------------------------------------------------------------------------------------


class _Answer(io.BytesIO):
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_command_puts_the_four_commands_to_the_leagues_application(league, connected):
    sent = []

    def urlopen(request, timeout):
        sent.append(request)
        return _Answer(json.dumps([{"name": c["name"], "id": "1"} for c in COMMANDS]).encode())

    out = io.StringIO()
    with mock.patch("urllib.request.urlopen", urlopen):
        call_command("discord_register_commands", "--league", str(league.pk), "--token", "s3cret", stdout=out)

    (request,) = sent
    assert request.full_url == "https://discord.com/api/v10/applications/1122334455/commands"
    assert request.get_method() == "PUT"
    assert request.get_header("Authorization") == "Bot s3cret"
    assert request.get_header("Content-type") == "application/json"
    body = json.loads(request.data)
    assert [c["name"] for c in body] == ["table", "next", "link", "confirm"]
    assert body[2]["options"][0] == {"type": 3, "name": "code", "description": "The one-time code", "required": True}
    assert body[3]["options"][0]["type"] == 4 and body[3]["options"][0]["name"] == "match"
    assert all(len(c["description"]) <= 100 for c in body)
    assert "/table, /next, /link, /confirm" in out.getvalue()
    assert "s3cret" not in out.getvalue()


def test_the_command_refuses_a_league_without_discord_or_a_token_and_says_discords_refusal(league, connected):
    with pytest.raises(CommandError, match="not connected"):
        call_command("discord_register_commands", "--league", "99999", "--token", "t")
    with pytest.raises(CommandError, match="token"):
        call_command("discord_register_commands", "--league", str(league.pk), "--token", " ")

    refusal = urllib.error.HTTPError("u", 401, "Unauthorized", {}, io.BytesIO(b'{"message": "401: Unauthorized"}'))
    with mock.patch("urllib.request.urlopen", side_effect=refusal), pytest.raises(CommandError, match="401"):
        call_command("discord_register_commands", "--league", str(league.pk), "--token", "wrong")


# --- the pages ---------------------------------------------------------------------------------------------------


def test_the_commissioner_connects_the_league_on_his_dashboard(client, league, commissioner):
    client.force_login(commissioner)
    url = reverse("desk-discord", args=[league.pk])
    assert url in client.get(reverse("commissioner-dashboard", args=[league.pk])).content.decode()

    page = client.get(url).content.decode()
    assert f"http://testserver/api/v1/integrations/discord/{league.pk}/interactions/" in page

    response = client.post(url, {"application_id": "987", "public_key": KEY})
    assert response.status_code == 302
    assert DiscordApplication.objects.get(league=league).application_id == "987"
    page = client.get(url).content.decode()
    assert "Connected to application 987" in page and "discord_register_commands --league" in page


def test_a_bad_key_on_the_panel_is_refused_in_words_and_a_coach_cannot_open_it(
    client, league, commissioner, coach, make_coach
):
    client.force_login(commissioner)
    url = reverse("desk-discord", args=[league.pk])

    response = client.post(url, {"application_id": "987", "public_key": "nope"}, HTTP_HX_REQUEST="true")

    assert response.status_code == 400
    assert "64 hexadecimal digits" in response.content.decode()
    assert 'value="987"' in response.content.decode() and 'value="nope"' in response.content.decode()  # to correct
    assert not DiscordApplication.objects.exists()
    client.force_login(make_coach(coach))
    assert client.get(url).status_code == 403
    assert client.post(url, {"application_id": "1", "public_key": KEY}).status_code == 403


def test_the_account_part_gives_a_code_that_links(client, coach, discord, connected):
    client.force_login(coach)

    part = client.post(reverse("account-discord"), {"action": "code"}, HTTP_HX_REQUEST="true").content.decode()

    code = part.split('value="/link code:')[1].split('"')[0]
    assert "alice" in discord(command("link", code=code)).json()["data"]["content"]
    page = client.post(reverse("account-discord"), {"action": "code"}, HTTP_HX_REQUEST="true").content.decode()
    assert "acts as you" in page


def test_the_account_part_without_a_script_shows_the_code_in_a_message_and_goes_back(client, coach):
    client.force_login(coach)

    response = client.post(reverse("account-discord"), {"action": "code", "next": "/me/"}, follow=True)

    assert response.redirect_chain[-1][0] == "/me/"
    assert "/link code:" in response.content.decode()
    away = client.post(reverse("account-discord"), {"action": "code", "next": "https://evil.example/"})
    assert away["Location"] == reverse("account")


def test_unlinking_ends_the_tie(client, coach):
    link(coach)
    client.force_login(coach)

    client.post(reverse("account-discord"), {"action": "unlink"})

    assert not DiscordLink.objects.exists()
    assert client.get(reverse("account-discord")).status_code == 405


def test_the_panel_and_the_account_part_read_in_at_most_five_queries(
    client, league, commissioner, connected, django_assert_max_num_queries
):
    client.force_login(commissioner)
    panel = reverse("desk-discord", args=[league.pk])
    client.get(panel)  # the connection's one-time checks (SQLite's JSON support) are not the panel's

    with django_assert_max_num_queries(5):
        assert client.get(panel, HTTP_HX_REQUEST="true").status_code == 200
    with django_assert_max_num_queries(5):
        assert client.post(reverse("account-discord"), {"action": "unlink"}, HTTP_HX_REQUEST="true").status_code == 200
