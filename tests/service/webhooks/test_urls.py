"""The address guard over many addresses. Every address here is data for a pure function:
nothing in this module opens a connection, and host names resolve through stubs."""

import socket

import pytest

from assetcheck.config.webhooks import parse_allowed_cidrs
from assetcheck.service.webhooks.urls import (
    ALLOWED_CIDRS_HINT,
    WebhookUrlError,
    address_refusal,
    check_webhook_url,
    resolve_host,
)

HOST_REFUSED = (
    "webhook URL refused: hooks.example.com does not resolve to an address that is allowed; "
    + ALLOWED_CIDRS_HINT
)


def stub_resolver(answers):
    """A resolver that knows only ``answers`` ({host: [addresses]}) and records its calls."""

    def resolve(host, port):
        calls.append((host, port))
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return answers[host]

    calls = []
    resolve.calls = calls
    return resolve


def numeric_only_resolver(host, port):
    """The system resolver, forbidden from asking DNS: what the platform makes of a numeric
    host such as ``0x7f.1``."""
    answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
    return [sockaddr[0] for *_, sockaddr in answers]


def refusal(address, allowed=()):
    return address_refusal(address, parse_allowed_cidrs(allowed))


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("127.255.255.254", "loopback"),
        ("::1", "loopback"),
        ("10.0.0.1", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.255", "private"),
        ("192.168.1.1", "private"),
        ("169.254.0.1", "link-local"),
        ("fe80::1", "link-local"),
        ("fe80::1%eth0", "link-local"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("100.127.255.254", "carrier-grade NAT"),
        ("fc00::1", "unique-local"),
        ("fd12:3456::1", "unique-local"),
        ("0.0.0.0", "unspecified"),
        ("::", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("239.255.255.250", "multicast"),
        ("ff02::1", "multicast"),
        ("240.0.0.1", "reserved"),
        ("fec0::1", "reserved"),
        ("0.1.2.3", "private"),
        ("192.0.2.1", "private"),
        ("2001:db8::1", "private"),
    ],
)
def test_internal_addresses_are_refused(address, kind):
    assert kind in refusal(address)


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("::ffff:127.0.0.1", "loopback"),
        ("::ffff:10.0.0.1", "private"),
        ("::ffff:192.168.0.1", "private"),
        ("::ffff:169.254.0.1", "link-local"),
        ("::ffff:100.64.0.1", "carrier-grade NAT"),
        ("::ffff:0.0.0.0", "unspecified"),
        ("64:ff9b::a00:1", "private"),  # NAT64 of 10.0.0.1
        ("64:ff9b::7f00:1", "loopback"),  # NAT64 of 127.0.0.1
        ("2002:a00:1::", "private"),  # 6to4 of 10.0.0.1
        ("2002:7f00:1::", "loopback"),  # 6to4 of 127.0.0.1
    ],
)
def test_ipv6_addresses_embedding_an_internal_ipv4_address_are_refused(address, kind):
    assert kind in refusal(address)


@pytest.mark.parametrize(
    "address",
    [
        "8.8.8.8",
        "1.1.1.1",
        "2606:4700:4700::1111",
        "::ffff:8.8.8.8",
        "64:ff9b::808:808",
    ],
)
def test_public_addresses_are_accepted(address):
    assert refusal(address) is None


@pytest.mark.parametrize("address", ["169.254.169.254", "::ffff:169.254.169.254", "fd00:ec2::254"])
@pytest.mark.parametrize("allowed", [["169.254.0.0/16", "fd00::/8"], ["0.0.0.0/0", "::/0"]])
def test_cloud_metadata_addresses_are_refused_even_inside_the_allowlist(address, allowed):
    assert "metadata" in refusal(address, allowed)


def test_a_refused_internal_address_names_the_setting_that_opens_it():
    with pytest.raises(WebhookUrlError) as refused:
        check_webhook_url("http://127.0.0.1:9000/hook")
    assert str(refused.value) == (
        "webhook URL refused: 127.0.0.1 is a loopback address; an internal receiver (a loopback "
        "or private address) is allowed only once the server's operator lists its network in "
        '[webhooks] allowed_cidrs, e.g. ["127.0.0.1/32"]'
    )
    with pytest.raises(WebhookUrlError) as metadata:
        check_webhook_url("http://169.254.169.254/latest", ["169.254.0.0/16"])
    assert "allowed_cidrs" not in str(metadata.value)  # nothing opens it


def test_the_allowlist_opens_exactly_the_networks_it_names():
    allowed = ["127.0.0.1/32", "10.1.0.0/16"]
    assert refusal("127.0.0.1", allowed) is None
    assert refusal("10.1.200.3", allowed) is None
    assert "loopback" in refusal("127.0.0.2", allowed)
    assert "private" in refusal("10.2.0.1", allowed)
    assert "loopback" in refusal("::1", allowed)


def test_the_allowlist_covers_the_ipv4_mapped_form_of_what_it_names():
    assert refusal("::ffff:127.0.0.1", ["127.0.0.1/32"]) is None


def test_an_allowlist_entry_with_host_bits_is_a_configuration_error():
    with pytest.raises(ValueError):
        parse_allowed_cidrs(["10.0.0.1/8"])


def test_a_public_host_is_accepted_with_its_addresses_pinned():
    resolver = stub_resolver({"hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07::1"]})
    target = check_webhook_url("https://hooks.example.com/in?x=1", resolver=resolver)
    assert target.addresses == ("93.184.215.14", "2606:2800:21f:cb07::1")
    assert (target.scheme, target.host, target.port) == ("https", "hooks.example.com", 443)
    assert target.url == "https://hooks.example.com/in?x=1"


def test_the_host_is_resolved_exactly_once():
    resolver = stub_resolver({"hooks.example.com": ["93.184.215.14"]})
    check_webhook_url("http://hooks.example.com:8080/in", resolver=resolver)
    assert resolver.calls == [("hooks.example.com", 8080)]


def test_a_host_with_one_internal_address_among_public_ones_is_refused():
    resolver = stub_resolver({"hooks.example.com": ["93.184.215.14", "10.0.0.1"]})
    with pytest.raises(WebhookUrlError) as refused:
        check_webhook_url("https://hooks.example.com/in", resolver=resolver)
    assert str(refused.value) == HOST_REFUSED


def test_a_host_name_pointing_at_the_metadata_service_is_refused():
    resolver = stub_resolver({"innocent.example.com": ["169.254.169.254"]})
    with pytest.raises(WebhookUrlError, match="does not resolve to an address that is allowed"):
        check_webhook_url("http://innocent.example.com/", ["0.0.0.0/0"], resolver)


def test_an_ip_literal_host_is_checked_without_resolving():
    resolver = stub_resolver({})
    with pytest.raises(WebhookUrlError, match=r"\[?::1\]? is a loopback address"):
        check_webhook_url("http://[::1]:8080/", resolver=resolver)
    assert check_webhook_url("http://127.0.0.1:9/", ["127.0.0.1/32"], resolver).addresses == (
        "127.0.0.1",
    )
    assert resolver.calls == []


@pytest.mark.parametrize("host", ["2130706433", "0x7f.1", "127.1", "0177.0.0.1"])
def test_legacy_numeric_forms_of_loopback_are_refused(host):
    with pytest.raises(WebhookUrlError, match="does not resolve to an address that is allowed"):
        check_webhook_url(f"http://{host}/", resolver=numeric_only_resolver)


@pytest.mark.parametrize(
    "address",
    ["10.0.0.1", "127.0.0.1", "169.254.169.254", "fd00::1", "::ffff:192.168.1.1", "100.64.0.1"],
)
def test_a_refused_host_name_never_says_which_address_it_resolves_to(address):
    resolver = stub_resolver({"hooks.example.com": ["93.184.215.14", address]})
    with pytest.raises(WebhookUrlError) as refused:
        check_webhook_url("https://hooks.example.com/in", resolver=resolver)
    assert str(refused.value) == HOST_REFUSED


def refusing_resolver(error: Exception):
    def resolve(host, port):
        raise error

    return resolve


@pytest.mark.parametrize(
    "resolver",
    [
        stub_resolver({"hooks.example.com": ["10.0.0.1"]}),
        stub_resolver({"hooks.example.com": []}),
        stub_resolver({}),
        refusing_resolver(socket.gaierror(socket.EAI_NONAME, "Name or service not known")),
        refusing_resolver(UnicodeError("label too long")),
    ],
    ids=["internal", "no-address", "unknown", "resolver-error", "unencodable"],
)
def test_an_internal_name_and_a_name_that_does_not_resolve_get_the_same_answer(resolver):
    with pytest.raises(WebhookUrlError) as refused:
        check_webhook_url("https://hooks.example.com/in", resolver=resolver)
    assert str(refused.value) == HOST_REFUSED


def test_the_system_resolver_returns_each_address_once():
    assert resolve_host("127.0.0.1", 80) == ["127.0.0.1"]


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("ftp://hooks.example.com/in", "scheme must be http or https"),
        ("file:///etc/passwd", "scheme must be http or https"),
        ("hooks.example.com/in", "scheme must be http or https"),
        ("http://", "no host"),
        ("http:///in", "no host"),
        ("https://user:secret@hooks.example.com/in", "credentials"),
        ("https://user@hooks.example.com/in", "credentials"),
        ("https://@hooks.example.com/in", "credentials"),
        ("https://hooks.example.com:0/in", "port 0"),
        ("https://hooks.example.com:65536/in", "out of range"),
        ("https://hooks.example.com:https/in", "Port could not be cast"),
        ("http://[::1/in", "Invalid IPv6 URL"),
        ("https://hooks.example.com/a b", "without spaces"),
        ("https://hooks.example.com/\x00", "control characters"),
        ("https://bücher.example/in", "ASCII"),
    ],
)
def test_malformed_urls_are_refused_before_resolving(url, reason):
    resolver = stub_resolver({"hooks.example.com": ["93.184.215.14"]})
    with pytest.raises(WebhookUrlError, match=reason) as refused:
        check_webhook_url(url, resolver=resolver)
    assert refused.value.code == "INVALID_WEBHOOK_URL"
    assert resolver.calls == []


def test_scheme_and_host_are_matched_case_insensitively():
    resolver = stub_resolver({"hooks.example.com": ["93.184.215.14"]})
    target = check_webhook_url("HTTPS://Hooks.Example.COM/In", resolver=resolver)
    assert (target.scheme, target.host) == ("https", "hooks.example.com")
