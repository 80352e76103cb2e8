"""`assetcheck submit` in the command's own words; its runs against a live service are in
tests/service/test_client.py."""

from assetcheck.cli.submit_command import CLI_WORDS, cli_message
from assetcheck.client import ApiError
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_options import parse_job_options
from assetcheck.service.webapp.multipart import missing_file, part_headers_too_large


def refusal(error: RequestError) -> ApiError:
    """The service's refusal as the client receives it."""
    return ApiError(error.status_code, error.code, error.message)


def options_refusal() -> RequestError:
    try:
        parse_job_options(b"[1]", ["generic"])
    except RequestError as error:
        return error
    raise AssertionError("a JSON list is not options")


def test_refusals_about_the_http_request_never_speak_of_http_to_a_command_line_user():
    refusals = [
        missing_file("The request has no `file` part"),
        part_headers_too_large(),
        options_refusal(),
    ]
    assert sorted(error.code for error in refusals) == sorted(CLI_WORDS)
    for error in refusals:
        words = cli_message(refusal(error))
        assert not any(term in words.lower() for term in ("multipart", "part", "header", "json"))


def test_other_refusals_keep_the_services_message():
    error = ApiError(413, "FILE_TOO_LARGE", "The file is larger than the 100 MB your plan allows.")
    assert cli_message(error) == error.message
