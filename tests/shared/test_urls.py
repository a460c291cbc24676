import pytest

from shared.urls import UnsafeTargetError, check_target_url


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/", "https://localhost/x", "http://10.1.2.3/"])
def test_private_targets_when_allowed(url):
    assert check_target_url(url, allow_private=True) == url


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
    ],
)
def test_refused_targets_say_why(url, why):
    with pytest.raises(UnsafeTargetError, match=why):
        check_target_url(url, allow_private=False)
