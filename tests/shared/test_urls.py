import pytest

from shared.urls import UnsafeTargetError, check_target_url


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
        ("http:///path", "has no host"),
        ("http://169.254.169.254/latest/meta-data", "link-local"),
        ("http://[fe80::1]/", "link-local"),
        ("http://metadata.google.internal/", "cloud metadata"),
        ("http://127.0.0.1:8080/", "private or loopback"),
        ("http://192.168.1.10/", "private or loopback"),
        ("http://100.64.0.1/", "private or loopback"),  # shared address space: not global
        ("http://[fd00::1]/", "private or loopback"),  # unique local
        ("http://[::1]/", "private or loopback"),
        # IPv4 addresses inside IPv6 forms, judged as the IPv4 address they reach
        ("http://[2002:a9fe:a9fe::]/", r"that is 169\.254\.169\.254\) is a link-local"),  # 6to4
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
    with pytest.raises(UnsafeTargetError, match="link-local or reserved"):
        check_target_url(url, allow_private=True)
