"""Getting back into an account (api-v1 v1.2 "Accounts": password reset): the API and the pages end to end, a
link that works once, the same answer for an unknown address, the per-address mail throttle, the outbox that
mails each reset at most once (failures visible in the admin), and the log-in guard's lock lifted by a reset."""

from __future__ import annotations

import re
import smtplib
from datetime import timedelta
from unittest import mock
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from dugout.tasks import password_reset_send as password_reset_send_task
from league import password_reset
from league.models import PasswordResetMail
from league.password_reset import password_reset_request, password_reset_send, password_reset_sweep
from tests.assertions import assert_refused
from tests.factories import PASSWORD, UserFactory, token_for

RESET, CONFIRM, TOKEN = "/api/v1/auth/password-reset/", "/api/v1/auth/password-reset/confirm/", "/api/v1/auth/token/"
NEW_PASSWORD = "Second-half-comeback-7"
HOME, ELSEWHERE, FRESH = "192.0.2.10", "203.0.113.99", "203.0.113.150"
LINK = re.compile(r"https?://\S+?/password-reset/(?P<uid>[^/\s]+)/(?P<token>[^/\s]+)/")
State = PasswordResetMail.State

pytestmark = pytest.mark.django_db


@pytest.fixture
def worker(monkeypatch):
    """The queue hands the rows to the Celery task at once, as a worker would (after the commit); the ids it
    was handed are recorded."""
    queued: list[list[int]] = []

    def queue(mail_ids):
        queued.append(list(mail_ids))
        password_reset_send_task.apply(args=[list(mail_ids)]).get()
        return True

    monkeypatch.setattr(password_reset, "password_reset_queue", queue)
    return queued


@pytest.fixture
def ask(worker, django_capture_on_commit_callbacks):
    """`ask(email, client=None)`: POST the reset request, its commit's callbacks run (the task mails)."""

    def post(email: str, client: APIClient | None = None):
        with django_capture_on_commit_callbacks(execute=True):
            return (client or APIClient()).post(RESET, {"email": email}, format="json")

    return post


def link_in(message) -> dict[str, str]:
    found = LINK.search(message.body)
    assert found, message.body
    return found.groupdict()


def api_login(address: str, password: str, username: str = "alice"):
    return APIClient(REMOTE_ADDR=address).post(TOKEN, {"username": username, "password": password}, format="json")


def confirm(uid: str, token: str, new_password: str = NEW_PASSWORD, address: str = HOME):
    body = {"uid": uid, "token": token, "new_password": new_password}
    return APIClient(REMOTE_ADDR=address).post(CONFIRM, body, format="json")


# --- the API, end to end --------------------------------------------------------------------------------------


def test_a_reset_mails_a_link_that_sets_the_password_and_ends_every_token(ask, coach):
    old_token = token_for(coach)

    response = ask(coach.email)

    assert response.status_code == 202, response.content
    assert [m.to for m in mail.outbox] == [[coach.email]]
    assert "alice" in mail.outbox[0].body and "one hour" in mail.outbox[0].body
    assert PasswordResetMail.objects.get(user=coach).state == State.SENT
    link = link_in(mail.outbox[0])

    assert confirm(link["uid"], link["token"]).status_code == 204
    assert api_login(HOME, NEW_PASSWORD).status_code == 200
    assert_refused(api_login(HOME, PASSWORD), 400)
    stale = APIClient()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {old_token}")
    assert stale.post("/api/v1/auth/logout/").status_code == 401


def test_an_unknown_address_gets_the_same_answer_and_no_mail(ask, coach):
    known, unknown = ask(coach.email), ask("nobody@example.com")

    assert (unknown.status_code, unknown.json()) == (known.status_code, known.json()) == (202, known.json())
    assert known.json()["detail"]
    assert [m.to for m in mail.outbox] == [[coach.email]]
    assert PasswordResetMail.objects.count() == 1


def test_the_address_is_matched_whatever_its_case(ask, coach):
    assert ask(coach.email.upper()).status_code == 202
    assert [m.to for m in mail.outbox] == [[coach.email]]


def test_each_account_with_the_address_gets_its_own_link(ask, coach):
    twin = UserFactory(username="alice2", email=coach.email)

    ask(coach.email)

    assert sorted(m.to[0] for m in mail.outbox) == [coach.email, twin.email]
    uids = {link_in(m)["uid"] for m in mail.outbox}
    assert len(uids) == 2


def test_an_inactive_account_gets_no_mail(ask, coach):
    coach.is_active = False
    coach.save()

    assert ask(coach.email).status_code == 202
    assert mail.outbox == []


def test_a_missing_or_malformed_address_is_400_naming_the_field(api):
    assert_refused(api.post(RESET, {}, format="json"), 400, "email")
    assert_refused(api.post(RESET, {"email": "not an address"}, format="json"), 400, "email")
    assert PasswordResetMail.objects.count() == 0


def test_a_link_works_once(ask, coach):
    ask(coach.email)
    link = link_in(mail.outbox[0])
    assert confirm(link["uid"], link["token"]).status_code == 204

    again = confirm(link["uid"], link["token"], new_password="Another-one-entirely-9")

    assert_refused(again, 400, "token")
    assert api_login(HOME, NEW_PASSWORD).status_code == 200


def test_a_link_ends_after_an_hour(ask, coach):
    ask(coach.email)
    link = link_in(mail.outbox[0])

    with mock.patch("django.contrib.auth.tokens.PasswordResetTokenGenerator._now") as now:
        now.return_value = timezone.now().replace(tzinfo=None) + timedelta(hours=1, minutes=1)
        late = confirm(link["uid"], link["token"])

    assert_refused(late, 400, "token")


def test_a_weak_new_password_is_refused_naming_the_field_and_the_link_still_works(ask, coach):
    ask(coach.email)
    link = link_in(mail.outbox[0])

    weak = confirm(link["uid"], link["token"], new_password="short")

    assert_refused(weak, 400, "new_password")
    coach.refresh_from_db()
    assert coach.check_password(PASSWORD)  # unchanged
    assert confirm(link["uid"], link["token"]).status_code == 204


def test_a_forged_uid_or_token_is_400_in_words(ask, coach):
    ask(coach.email)
    link = link_in(mail.outbox[0])

    assert_refused(confirm(link["uid"], "1a2-0123456789abcdef"), 400, "token")
    assert_refused(confirm("!!!", link["token"]), 400, "token")
    assert_refused(confirm("OTk5OTk5", link["token"]), 400, "token")  # a user that does not exist
    assert_refused(APIClient().post(CONFIRM, {"uid": link["uid"]}, format="json"), 400, "token", "new_password")
    assert api_login(HOME, PASSWORD).status_code == 200


# --- the throttle -------------------------------------------------------------------------------------------------


def test_an_address_gets_at_most_three_reset_mails_an_hour_and_the_answer_never_changes(ask, coach):
    answers = [ask(email).status_code for email in [coach.email, coach.email, coach.email.upper(), coach.email]]

    assert answers == [202] * 4
    assert len(mail.outbox) == 3
    assert PasswordResetMail.objects.count() == 3

    with mock.patch("django.utils.timezone.now", return_value=timezone.now() + timedelta(hours=1, seconds=1)):
        assert ask(coach.email).status_code == 202
    assert len(mail.outbox) == 4


def test_a_failed_mail_does_not_use_up_the_allowance(coach):
    for _ in range(3):
        password_reset_request(email=coach.email)
    PasswordResetMail.objects.update(state=State.FAILED)

    assert password_reset_request(email=coach.email) == 1


# --- the outbox: at most once, failures in sight -------------------------------------------------------------


def test_no_mail_goes_out_before_the_request_commits(api, coach, worker):
    assert api.post(RESET, {"email": coach.email}, format="json").status_code == 202

    assert mail.outbox == [] and worker == []
    assert PasswordResetMail.objects.get().state == State.PENDING


def test_a_row_is_mailed_once_however_often_its_task_runs(coach):
    password_reset_request(email=coach.email)
    row = PasswordResetMail.objects.get()

    assert password_reset_send(mail_ids=[row.pk], base_url="http://testserver") == 1
    assert password_reset_send(mail_ids=[row.pk], base_url="http://testserver") == 0
    assert len(mail.outbox) == 1


def test_a_row_claimed_by_a_dead_worker_is_not_resent_and_the_sweep_marks_it_failed(coach):
    password_reset_request(email=coach.email)
    long_ago = timezone.now() - timedelta(hours=1)
    PasswordResetMail.objects.update(state=State.SENDING, claimed_at=long_ago)
    row = PasswordResetMail.objects.get()

    assert password_reset_send(mail_ids=[row.pk], base_url="http://testserver") == 0
    assert password_reset_sweep()["stuck"] == 1

    row.refresh_from_db()
    assert mail.outbox == []
    assert row.state == State.FAILED and "may or may not have gone out" in row.error


def test_a_refused_mail_is_marked_failed_with_its_reason_and_the_admin_lists_it(coach, admin_client):
    password_reset_request(email=coach.email)
    row = PasswordResetMail.objects.get()
    refused = smtplib.SMTPRecipientsRefused({coach.email: (550, b"no such mailbox")})

    with mock.patch.object(EmailMessage, "send", side_effect=refused):
        assert password_reset_send(mail_ids=[row.pk], base_url="http://testserver") == 0

    row.refresh_from_db()
    assert row.state == State.FAILED and "no such mailbox" in row.error
    page = admin_client.get("/admin/league/passwordresetmail/", {"state__exact": "failed"})
    assert page.status_code == 200
    assert coach.email in page.content.decode()


def test_the_admin_sends_a_failed_mail_again(coach, admin_client, worker, django_capture_on_commit_callbacks):
    password_reset_request(email=coach.email)
    row = PasswordResetMail.objects.get()
    PasswordResetMail.objects.update(state=State.FAILED, error="refused")

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/league/passwordresetmail/", {"action": "send_again", "_selected_action": [row.pk]}
        )

    assert response.status_code == 302
    row.refresh_from_db()
    assert row.state == State.SENT and [m.to for m in mail.outbox] == [[coach.email]]


def test_the_sweep_queues_rows_the_broker_missed(coach, worker):
    password_reset_request(email=coach.email)  # never committed here: its queueing never ran
    PasswordResetMail.objects.update(created_at=timezone.now() - timedelta(minutes=5))

    assert password_reset_sweep()["queued"] == 1
    assert [m.to for m in mail.outbox] == [[coach.email]]


def test_with_the_broker_down_the_request_still_answers_202_and_the_row_waits(
    api, coach, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(*args, **kwargs):
        raise ConnectionRefusedError("broker down")

    monkeypatch.setattr(password_reset.current_app, "send_task", broken)

    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(RESET, {"email": coach.email}, format="json")

    assert response.status_code == 202
    assert PasswordResetMail.objects.get().state == State.PENDING and mail.outbox == []


# --- the log-in guard: a reset lets the owner in, the guesser stays out -------------------------------------------


def lock_alice_out() -> None:
    """Ten wrong passwords from two addresses: the account lock for every address alice never logged in from."""
    for address in ("198.51.100.1", "198.51.100.2"):
        for i in range(5):
            api_login(address, f"guess-{i}")


def test_the_429_says_how_to_get_back_in_with_the_link(coach):
    lock_alice_out()

    response = api_login(ELSEWHERE, PASSWORD)

    body = assert_refused(response, 429)
    assert "Try again in" in body["detail"] and "reset your password" in body["detail"]
    assert body["password_reset"] == "http://testserver/password-reset/"
    assert body["password_reset"] in body["detail"]
    page = Client(REMOTE_ADDR=ELSEWHERE).post("/login/", {"username": "alice", "password": PASSWORD})
    assert page.status_code == 429
    assert 'href="/password-reset/"' in page.content.decode()


def test_a_completed_reset_lets_the_locked_out_owner_in_from_anywhere(ask, coach):
    lock_alice_out()
    assert_refused(api_login(ELSEWHERE, PASSWORD), 429)

    ask(coach.email)
    link = link_in(mail.outbox[0])
    assert confirm(link["uid"], link["token"], address=ELSEWHERE).status_code == 204

    assert api_login(ELSEWHERE, NEW_PASSWORD).status_code == 200
    assert api_login(FRESH, NEW_PASSWORD).status_code == 200


def test_after_a_reset_the_guessers_stay_out_and_the_owner_stays_in(ask, coach):
    lock_alice_out()
    ask(coach.email)
    link = link_in(mail.outbox[0])
    assert confirm(link["uid"], link["token"], address=ELSEWHERE).status_code == 204

    # The guessers' own pairs still wait; ten new guesses lock the strangers out again, not the owner's address.
    assert_refused(api_login("198.51.100.1", NEW_PASSWORD), 429)
    for address in ("198.51.100.3", "198.51.100.4"):
        for i in range(5):
            api_login(address, f"more-{i}")
    assert_refused(api_login(FRESH, NEW_PASSWORD), 429)
    assert api_login(ELSEWHERE, NEW_PASSWORD).status_code == 200


# --- the pages ---------------------------------------------------------------------------------------------------


def test_the_log_in_page_links_to_the_password_reset(client):
    page = client.get("/login/").content.decode()
    assert 'href="/password-reset/"' in page


def test_the_reset_pages_end_to_end(coach, worker, django_capture_on_commit_callbacks):
    browser = Client(REMOTE_ADDR=ELSEWHERE)
    assert browser.get("/password-reset/").status_code == 200

    with django_capture_on_commit_callbacks(execute=True):
        asked = browser.post("/password-reset/", {"email": coach.email})
    assert asked.status_code == 302 and asked["Location"] == "/password-reset/sent/"
    assert "Check your mailbox" in browser.get(asked["Location"]).content.decode()
    path = urlsplit(LINK.search(mail.outbox[0].body).group(0)).path

    opened = browser.get(path)  # the token moves into the session; the form is at .../set-password/
    assert opened.status_code == 302
    form = browser.get(opened["Location"])
    assert form.status_code == 200 and "Set a new password" in form.content.decode()
    # Two different passwords: the form again with its error in words, answered 400, the password unchanged.
    mismatched = browser.post(opened["Location"], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"})
    assert mismatched.status_code == 400 and "didn’t match" in mismatched.content.decode()
    coach.refresh_from_db()
    assert not coach.check_password(NEW_PASSWORD)
    done = browser.post(opened["Location"], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/password-reset/done/"
    assert browser.get(done["Location"]).status_code == 302

    assert browser.post("/login/", {"username": "alice", "password": NEW_PASSWORD}).status_code == 302
    reused = Client().get(path)
    assert "This link does not work" in reused.content.decode()


def test_the_reset_page_answers_the_same_for_an_unknown_address(coach, worker, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        known = Client().post("/password-reset/", {"email": coach.email})
        unknown = Client().post("/password-reset/", {"email": "nobody@example.com"})

    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert len(mail.outbox) == 1


def test_the_reset_page_says_what_is_wrong_with_a_bad_address(client):
    response = client.post("/password-reset/", {"email": "not an address"})

    assert response.status_code == 400  # the form again with its error in words
    assert "Enter a valid email address" in response.content.decode()
    assert PasswordResetMail.objects.count() == 0


def test_a_reset_on_the_page_lifts_the_lock_for_the_owner(coach, worker, django_capture_on_commit_callbacks):
    lock_alice_out()
    browser = Client(REMOTE_ADDR=FRESH)
    assert browser.post("/login/", {"username": "alice", "password": PASSWORD}).status_code == 429

    with django_capture_on_commit_callbacks(execute=True):
        browser.post("/password-reset/", {"email": coach.email})
    path = urlsplit(LINK.search(mail.outbox[0].body).group(0)).path
    form = browser.get(path)["Location"]
    browser.post(form, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert browser.post("/login/", {"username": "alice", "password": NEW_PASSWORD}).status_code == 302
