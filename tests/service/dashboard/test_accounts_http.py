"""Accounts and sessions over plain HTTP: cookies, XSRF, log-in limits, who sees what."""

from __future__ import annotations

import html
import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from assetcheck.service.accounts.store import issue_key
from assetcheck.service.db.tables import Account, ApiKey, Job
from assetcheck.service.webapp.handlers import XSRF_MESSAGE
from assetcheck.testing.shapes import pawn_glb
from tests.service.conftest import BACKENDS
from tests.service.dashboard.conftest import PASSWORD, Site
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    service_settings,
    upload,
    wait_until,
    write_config,
)

_XSRF_TOKEN = re.compile(r'<body data-xsrf="([^"]+)"')


class Visitor:
    """A browser without a browser: a cookie jar, and the XSRF token its pages carry."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = requests.Session()

    def token(self) -> str:
        """The token every page carries (the sign-up page, or the profile once logged in)."""
        page = self.get("/signup")
        if page.status_code == 302:
            page = self.get("/profile")
        return _XSRF_TOKEN.search(page.text)[1]

    def get(self, path: str) -> requests.Response:
        return self.http.get(self.url + path, allow_redirects=False, timeout=10)

    def post(
        self, path: str, data: dict[str, str] | None = None, *, xsrf: bool = True, **kwargs
    ) -> requests.Response:
        data = dict(data or {})
        if xsrf:
            data["_xsrf"] = self.token()
        return self.http.post(
            self.url + path, data=data, allow_redirects=False, timeout=30, **kwargs
        )

    def log_in(self, email: str, password: str = PASSWORD, **fields: str) -> requests.Response:
        return self.post("/login", {"email": email, "password": password, **fields})

    def upload(
        self, content: bytes, filename: str = "model.glb", xsrf: bool = True
    ) -> requests.Response:
        headers = {"X-XSRFToken": self.token()} if xsrf else {}
        return self.http.post(
            f"{self.url}/uploads", files={"file": (filename, content)}, headers=headers, timeout=30
        )


def logged_in(site: Site, plan: str = "pro") -> Visitor:
    visitor = Visitor(site.url)
    assert visitor.log_in(site.account(plan)).status_code == 302
    return visitor


def test_the_session_cookie_is_signed_http_only_and_same_site(site: Site):
    visitor = Visitor(site.url)
    answer = visitor.log_in(site.account())
    assert answer.status_code == 302 and answer.headers["Location"] == "/"
    cookie = next(
        c for c in answer.raw.headers.getlist("Set-Cookie") if c.startswith("assetcheck_session=")
    )
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "expires=" in cookie
    assert visitor.get("/profile").status_code == 200

    value = visitor.http.cookies["assetcheck_session"]
    visitor.http.cookies.set("assetcheck_session", value.replace("|", "|1", 1))
    assert visitor.get("/profile").headers["Location"].startswith("/login")


def test_forms_without_the_xsrf_token_change_nothing(site: Site):
    visitor = logged_in(site)
    refused = visitor.post("/profile/keys", {"name": "forged"}, xsrf=False)
    assert refused.status_code == 403
    assert refused.headers["Content-Type"].startswith("text/html")
    assert html.escape(XSRF_MESSAGE) in refused.text
    assert "forged" not in visitor.get("/profile").text
    assert visitor.post("/logout", xsrf=False).status_code == 403
    assert visitor.get("/profile").status_code == 200  # still logged in


def test_uploads_without_the_xsrf_header_are_refused_and_leave_nothing(site: Site):
    visitor = logged_in(site)
    jobs = site.server.config.storage.data_dir / "jobs"
    before = set(jobs.iterdir()) if jobs.exists() else set()
    refused = visitor.upload(pawn_glb(), xsrf=False)
    assert refused.status_code == 403
    assert refused.json() == {"code": "XSRF_MISSING", "error": XSRF_MESSAGE}
    forged = requests.post(  # a connection of its own: the refusal closed the session's
        f"{site.url}/uploads",
        files={"file": ("model.glb", pawn_glb())},
        headers={"X-XSRFToken": "2|00000000|" + "0" * 32 + "|1"},
        cookies=visitor.http.cookies,
        timeout=30,
    )
    assert forged.status_code == 403
    assert forged.json() == {"code": "XSRF_INVALID", "error": XSRF_MESSAGE}
    assert (set(jobs.iterdir()) if jobs.exists() else set()) == before


def test_the_api_takes_keys_and_no_xsrf_token(site: Site):
    bind_database(site.server.config)
    account = Account.get(Account.email == site.account())
    key = issue_key(account, "test")[1]
    assert upload(site.url, key, pawn_glb()).status_code == 202


def test_a_dashboard_upload_answers_like_the_api_and_its_status_can_be_polled(site: Site):
    visitor = logged_in(site, plan="free")
    answer = visitor.upload(pawn_glb(), "pawn.glb")
    assert answer.status_code == 202
    job_id = answer.json()["job_id"]
    status = wait_until(
        lambda: (
            (body := visitor.get(f"/jobs/{job_id}/status").json())["status"]
            in ("completed", "failed")
            and body
        )
    )
    assert status["status"] == "completed" and status["filename"] == "pawn.glb"
    picture = visitor.get(f"/jobs/{job_id}/previews/0.png")
    assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")


def test_dashboard_json_and_report_downloads_are_never_rendered_as_pages(site: Site):
    visitor = logged_in(site)
    job_id = visitor.upload(pawn_glb()).json()["job_id"]
    wait_until(lambda: visitor.get(f"/jobs/{job_id}/status").json()["status"] == "completed")
    status = visitor.get(f"/jobs/{job_id}/status")
    text = visitor.get(f"/jobs/{job_id}/report/text")
    for response in (status, text):
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert text.headers["Content-Disposition"] == f'attachment; filename="{job_id}-report.txt"'


def test_another_accounts_job_is_not_found_anywhere_in_the_dashboard(site: Site):
    owner = logged_in(site)
    job_id = owner.upload(pawn_glb()).json()["job_id"]
    stranger = logged_in(site)
    assert stranger.get(f"/jobs/{job_id}").status_code == 404
    assert stranger.get(f"/jobs/{job_id}/status").json()["code"] == "JOB_NOT_FOUND"
    assert stranger.get(f"/jobs/{job_id}/previews/0.png").status_code == 404
    assert stranger.get(f"/jobs/{job_id}/report/json").status_code == 404


def test_another_accounts_key_cannot_be_revoked(site: Site):
    bind_database(site.server.config)
    victim = Account.get(Account.email == site.account())
    issue_key(victim, "test")
    key = ApiKey.get(ApiKey.account == victim.id)
    assert logged_in(site).post(f"/profile/keys/{key.id}/revoke").status_code == 404
    assert ApiKey.get_by_id(key.id).revoked_at is None


@pytest.mark.parametrize("key_id", ["9" * 23, "1" * 5000])
def test_a_key_id_beyond_any_database_id_is_not_found(site: Site, key_id: str):
    response = logged_in(site).post(f"/profile/keys/{key_id}/revoke")
    assert response.status_code == 404
    assert "You have no API key with this id." in response.text


def test_a_preview_number_beyond_any_upload_is_not_found(site: Site):
    visitor = logged_in(site)
    job_id = visitor.upload(pawn_glb()).json()["job_id"]
    assert visitor.get(f"/jobs/{job_id}/previews/{'7' * 5000}.png").status_code == 404


def test_changing_the_password_ends_the_other_sessions(site: Site):
    email = site.account()
    here, elsewhere = Visitor(site.url), Visitor(site.url)
    here.log_in(email)
    elsewhere.log_in(email)
    new_password = "a brand new passphrase"
    wrong = here.post(
        "/profile/password", {"current_password": "guess", "new_password": new_password}
    )
    assert wrong.status_code == 400 and 'id="current_password-error"' in wrong.text
    changed = here.post(
        "/profile/password", {"current_password": PASSWORD, "new_password": new_password}
    )
    assert changed.headers["Location"] == "/profile?done=password"
    assert here.get("/profile").status_code == 200
    assert elsewhere.get("/profile").headers["Location"].startswith("/login")
    assert Visitor(site.url).log_in(email).status_code == 400
    assert Visitor(site.url).log_in(email, new_password).status_code == 302


def test_logging_out_ends_the_session_and_every_copy_of_its_cookie(site: Site):
    email = site.account()
    here, elsewhere = Visitor(site.url), Visitor(site.url)
    here.log_in(email)
    elsewhere.log_in(email)
    copied = here.http.cookies["assetcheck_session"]
    assert here.post("/logout").headers["Location"] == "/login"
    thief = Visitor(site.url)
    thief.http.cookies.set("assetcheck_session", copied)
    for visitor in (here, thief, elsewhere):
        assert visitor.get("/profile").headers["Location"].startswith("/login")
    assert here.log_in(email).status_code == 302 and here.get("/profile").status_code == 200


def session_cookie_of(answer: requests.Response) -> str:
    return next(
        c for c in answer.raw.headers.getlist("Set-Cookie") if c.startswith("assetcheck_session=")
    )


@pytest.mark.parametrize(
    ("server", "headers", "secure"),
    [
        ({}, {"X-Forwarded-Proto": "https"}, False),
        ({"trust_forwarded_headers": True}, {"X-Forwarded-Proto": "https"}, True),
        ({"secure_cookies": True}, {}, True),
    ],
    ids=["forwarded-headers-untrusted", "forwarded-headers-trusted", "secure-cookies"],
)
def test_cookies_are_secure_behind_a_tls_proxy_only_as_configured(
    tmp_path, server, headers, secure
):
    site = Site(
        ServiceProcess(
            write_config(tmp_path, service_settings(tmp_path, "", server=server))
        ).start()
    )
    try:
        visitor = Visitor(site.url)
        token = visitor.token()
        for cookie in visitor.http.cookies:  # the XSRF cookie; Secure ones stay home over http
            assert cookie.secure is bool(server.get("secure_cookies"))
            cookie.secure = False
        answer = visitor.post(
            "/login",
            {"email": site.account(), "password": PASSWORD, "_xsrf": token},
            xsrf=False,
            headers=headers,
        )
        assert answer.status_code == 302
        assert ("Secure" in session_cookie_of(answer)) is secure
    finally:
        site.server.stop()


@pytest.mark.parametrize(
    ("target", "landing"),
    [
        ("/jobs", "/jobs"),
        ("https://elsewhere.example/", "/"),
        ("//elsewhere.example", "/"),
        ("/\\elsewhere.example", "/"),
    ],
)
def test_log_in_returns_to_pages_of_this_site_only(site: Site, target: str, landing: str):
    answer = Visitor(site.url).log_in(site.account(), next=target)
    assert answer.headers["Location"] == landing


def test_passwords_are_stored_as_scrypt_hashes(site: Site):
    email = site.account()
    bind_database(site.server.config)
    stored = Account.get(Account.email == email).password_hash
    assert stored.startswith("scrypt$") and PASSWORD not in stored


def test_sign_up_errors_are_shown_next_to_the_field_at_fault(site: Site):
    visitor = Visitor(site.url)
    short = visitor.post("/signup", {"email": "new@studio.example", "password": "short"})
    assert short.status_code == 400 and 'id="password-error"' in short.text
    assert 'id="email-error"' not in short.text
    assert 'value="new@studio.example"' in short.text  # what was typed stays
    both = visitor.post("/signup", {"email": "not an address", "password": "short"})
    assert 'id="email-error"' in both.text and 'id="password-error"' in both.text
    taken = visitor.post("/signup", {"email": site.account(), "password": PASSWORD})
    assert taken.status_code == 400 and 'id="email-error"' not in taken.text
    assert "No account was made with these details" in taken.text


def test_only_the_first_account_of_an_installation_chooses_its_plan(fresh_site: Site):
    first, second = Visitor(fresh_site.url), Visitor(fresh_site.url)
    assert fresh_site.url + "/signup" == fresh_site.url + first.get("/").headers["Location"]
    form = {"password": PASSWORD, "plan": "enterprise"}
    assert first.post("/signup", {"email": "ops@studio.example", **form}).status_code == 302
    assert second.post("/signup", {"email": "artist@studio.example", **form}).status_code == 302
    bind_database(fresh_site.server.config)
    plans = {a.email: a.plan for a in Account.select()}
    assert plans == {"ops@studio.example": "enterprise", "artist@studio.example": "free"}
    assert first.get("/").status_code == 200  # signed up is logged in


def test_a_taken_address_is_not_named_and_every_sign_up_attempt_counts(fresh_site: Site):
    taken = fresh_site.account()
    visitor = Visitor(fresh_site.url)
    answer = visitor.post("/signup", {"email": taken, "password": PASSWORD})
    assert answer.status_code == 400
    assert "already exists" not in answer.text
    assert "No account was made with these details" in answer.text
    for number in range(2, 11):  # refused attempts count toward the limit of 10 an hour
        email = taken if number % 2 else f"probe-{number}@studio.example"
        assert visitor.post("/signup", {"email": email, "password": "short"}).status_code == 400
    limited = visitor.post("/signup", {"email": "new@studio.example", "password": PASSWORD})
    assert limited.status_code == 429 and "Retry-After" in limited.headers


@pytest.mark.parametrize("backend", BACKENDS)
def test_parallel_sign_ups_on_a_fresh_install_make_one_operator(
    tmp_path, backend, database_factory
):
    server = ServiceProcess(
        write_config(tmp_path, service_settings(tmp_path, database_factory(backend)))
    ).start()
    try:
        visitors = [Visitor(server.url) for _ in range(8)]
        tokens = [visitor.token() for visitor in visitors]
        start = threading.Barrier(len(visitors))

        def sign_up(number: int) -> int:
            start.wait()
            return (
                visitors[number]
                .post(
                    "/signup",
                    {
                        "email": f"ops-{number}@studio.example",
                        "password": PASSWORD,
                        "plan": "enterprise",
                        "_xsrf": tokens[number],
                    },
                    xsrf=False,
                )
                .status_code
            )

        with ThreadPoolExecutor(len(visitors)) as pool:
            statuses = list(pool.map(sign_up, range(len(visitors))))
        bind_database(server.config)
        plans = sorted(account.plan for account in Account.select())
    finally:
        server.stop()
    assert statuses == [302] * 8 and plans == ["enterprise"] + ["free"] * 7


def test_unknown_pages_answer_an_html_404_and_unknown_api_paths_json(site: Site):
    page = requests.get(f"{site.url}/no/such/page", timeout=10)
    assert page.status_code == 404 and page.headers["Content-Type"].startswith("text/html")
    api = requests.get(f"{site.url}/api/v1/no-such-endpoint", timeout=10)
    assert api.status_code == 404 and api.json()["code"] == "NOT_FOUND"


def test_pages_forbid_inline_scripts_and_framing(site: Site):
    headers = logged_in(site).get("/").headers
    policy = headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert headers["Cache-Control"] == "no-store"


def test_a_free_account_is_refused_key_creation_by_the_server_too(site: Site):
    visitor = logged_in(site, plan="free")
    answer = visitor.post("/profile/keys", {"name": "sneaky", "expires_in": ""})
    assert answer.status_code == 403 and "Starter, Pro and Enterprise" in answer.text
    bind_database(site.server.config)
    assert not ApiKey.select().where(ApiKey.name == "sneaky").exists()


def test_an_account_with_its_maximum_of_active_keys_is_told_to_revoke_one(site: Site):
    email = site.account()
    visitor = Visitor(site.url)
    assert visitor.log_in(email).status_code == 302
    account = Account.get(Account.email == email)
    limit = site.server.config.accounts.max_active_keys
    for _ in range(limit):
        issue_key(account)
    answer = visitor.post("/profile/keys", {"name": "one more", "expires_in": ""})
    assert answer.status_code == 409
    assert f"You have {limit} active keys" in answer.text and "revoke one" in answer.text
    assert not ApiKey.select().where(ApiKey.name == "one more").exists()


def test_a_failed_job_page_says_why_and_offers_the_failure_reports(site: Site):
    visitor = logged_in(site)
    job_id = visitor.upload(pawn_glb(), "crash-model.glb").json()["job_id"]  # kills its worker
    wait_until(lambda: visitor.get(f"/jobs/{job_id}/status").json()["status"] == "failed")
    page = visitor.get(f"/jobs/{job_id}")
    assert page.status_code == 200
    assert "The validation could not be done" in page.text and "VALIDATION_CRASHED" in page.text
    report = visitor.get(f"/jobs/{job_id}/report/markdown")
    assert report.status_code == 200
    assert report.headers["Content-Disposition"] == (f'attachment; filename="{job_id}-report.md"')


def test_an_account_on_a_plan_no_longer_offered_is_told_so_on_every_page(site: Site):
    visitor = logged_in(site)
    job_id = visitor.upload(pawn_glb()).json()["job_id"]
    wait_until(lambda: visitor.get(f"/jobs/{job_id}/status").json()["status"] == "completed")
    bind_database(site.server.config)
    Account.update(plan="retired").where(Account.id == Job.get_by_id(job_id).account).execute()
    for page in ("/", f"/jobs/{job_id}"):
        response = visitor.get(page)
        assert response.status_code == 403, page
        assert "plan 'retired' is not offered by this service" in html.unescape(response.text), page
