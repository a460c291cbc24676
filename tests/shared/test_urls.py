import pytest

from shared.urls import TargetPolicy, UnsafeTargetError


def check_target_url(url: str, *, allow_private: bool) -> str:
    return TargetPolicy(allow_private=allow_private).check_url(url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/", "https://localhost/x", "http://10.1.2.3/",
                                 # loopback in every IPv6 spelling is loopback, as 127.0.0.1 is
                                 "http://[::1]:8080/", "http://[::ffff:127.0.0.1]:8080/", "http://100.64.0.1/"])
def test_private_targets_when_allowed(url):
    assert check_target_url(url, allow_private=True) == url


@pytest.mark.parametrize("url", ["http://93.184.215.14/", "http://[2606:4700:4700::1111]/",
                                 "http://[::ffff:93.184.215.14]/", "http://[2002:5db8:d70e::]/"])
def test_global_targets_are_accepted(url):
    assert check_target_url(url, allow_private=False) == url


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("file:///etc/passwd", "only http and https"),
        ("javascript:alert(1)", "only http and https"),
        ("http:///path", "parsers disagree"),  # a browser reads host "path"
        ("http://169.254.169.254/latest/meta-data", "cloud metadata or link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://metadata.google.internal/", "cloud metadata"),
        ("http://127.0.0.1:8080/", "private or loopback"),
        ("http://192.168.1.10/", "private or loopback"),
        ("http://100.64.0.1/", "private or loopback"),  # shared address space: not global
        ("http://[fd00::1]/", "private or loopback"),  # unique local
        ("http://[::1]/", "private or loopback"),
        # IPv4 addresses inside IPv6 forms, judged as the IPv4 address they reach
        ("http://[2002:a9fe:a9fe::]/", r"that is 169\.254\.169\.254\) is a cloud metadata or link-local"),  # 6to4
        ("http://[::ffff:169.254.169.254]/", "link-local"),  # IPv4-mapped
        ("http://[64:ff9b::a9fe:a9fe]/", "link-local"),  # NAT64
        ("http://[::a9fe:a9fe]/", "link-local"),  # IPv4-compatible
        ("http://[2001:0:4136:e378:8000:63bf:5601:5656]/", "link-local"),  # Teredo, client 169.254.169.169
        ("http://[::ffff:10.0.0.1]/", "private or loopback"),
        ("http://[2002:0a00:0001::]/", "private or loopback"),  # 6to4 of 10.0.0.1
    ],
)
def test_refused_targets_say_why(url, why):
    with pytest.raises(UnsafeTargetError, match=why):
        check_target_url(url, allow_private=False)


@pytest.mark.parametrize("url", ["http://169.254.169.254/", "http://[2002:a9fe:a9fe::]/",
                                 "http://[::ffff:169.254.169.254]/", "http://[ff02::1]/", "http://0.0.0.0/"])
def test_metadata_and_reserved_targets_are_refused_even_with_private_allowed(url):
    with pytest.raises(UnsafeTargetError, match="cloud metadata or link-local|multicast or reserved"):
        check_target_url(url, allow_private=True)


@pytest.mark.parametrize(
    ("url", "why"),
    [
        # urllib reads host 8.8.8.8 (user-info "127.0.0.1\\"), a browser host 127.0.0.1
        ("http://127.0.0.1\\@8.8.8.8/", "backslash"),
        ("http://8.8.8.8\\@127.0.0.1/", "backslash"),
        ("http://user:secret@8.8.8.8/", "user name or password"),
        ("http://@8.8.8.8/", "user name or password"),
        ("http://8.8.8.8:0/", "port 0"),
        ("http://8.8.8.8\t/", "control character"),
        (" http://8.8.8.8/", "whitespace"),
        ("http://0x7f.1/", "parsers disagree"),  # a browser reads 127.0.0.1
        ("http://127.1/", "parsers disagree"),
        ("http://ex%61mple.com/", "parsers disagree"),  # a browser reads example.com
        ("http://8.8.8.8:99999/", "not a valid URL"),
        ("http://[::1/", "not a valid URL"),
    ],
)
def test_urls_parsers_read_differently_are_refused(url, why):
    with pytest.raises(UnsafeTargetError, match=why):
        check_target_url(url, allow_private=True)


@pytest.mark.parametrize("url", ["http://8.8.8.8/a?b=c@d", "https://8.8.8.8:8443/x#y@z", "http://[2001:4860:4860::8888]/"])
def test_an_at_sign_past_the_host_is_no_user_info(url):
    assert check_target_url(url, allow_private=False) == url


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",  # AWS, GCP, Azure, Oracle, DigitalOcean
        "http://169.254.170.2/v2/credentials",  # AWS ECS
        "http://[fd00:ec2::254]/latest/meta-data/",  # AWS over IPv6
        "http://100.100.100.200/latest/meta-data/",  # Alibaba Cloud
        "http://168.63.129.16/machine",  # Azure WireServer (a global address)
        "http://192.0.0.192/",  # Oracle Cloud's legacy endpoint
        "http://metadata.goog/",
        "http://[::ffff:100.100.100.200]/",
    ],
)
@pytest.mark.parametrize("allow_private", [True, False])
def test_cloud_metadata_endpoints_are_refused_whatever_the_setting(url, allow_private):
    with pytest.raises(UnsafeTargetError, match="cloud metadata"):
        check_target_url(url, allow_private=allow_private)


def test_refused_networks_are_refused_even_when_private_targets_are_allowed():
    import ipaddress

    policy = TargetPolicy(allow_private=True, refused_networks=(ipaddress.ip_network("127.0.0.2/32"),))
    assert policy.check_url("http://127.0.0.1:8080/") == "http://127.0.0.1:8080/"
    with pytest.raises(UnsafeTargetError, match=r"refused network \(127.0.0.2/32"):
        policy.check_url("http://127.0.0.2:8080/")
    with pytest.raises(UnsafeTargetError, match="refused network"):
        policy.check_url("http://[::ffff:127.0.0.2]:8080/")  # the same address in an IPv6 form
