"""Credentials kept encrypted at rest (a project's report_to secret): Fernet (AES-128-CBC and HMAC-SHA256, from
the cryptography package) under the service's STEPFORGE_SECRETS_KEY. Several keys, comma-separated: the first
encrypts, any of them decrypts, so a key is rotated without losing what the old one encrypted."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken, MultiFernet


class SecretsKeyError(ValueError):
    """No key, a key that is not a Fernet key, or a value none of the keys decrypts."""


def _keys(key: str | None) -> MultiFernet:
    if not key or not key.strip():
        raise SecretsKeyError("the service has no STEPFORGE_SECRETS_KEY to encrypt credentials with")
    try:
        return MultiFernet([Fernet(part.strip().encode()) for part in key.split(",") if part.strip()])
    except ValueError:
        raise SecretsKeyError("STEPFORGE_SECRETS_KEY is not a Fernet key (32 url-safe base64-encoded bytes; make one "
                              "with Fernet.generate_key())") from None


def encrypt(key: str | None, plain: str) -> str:
    return _keys(key).encrypt(plain.encode("utf-8")).decode("ascii")


def decrypt(key: str | None, token: str) -> str:
    try:
        return _keys(key).decrypt(token.encode("ascii")).decode("utf-8")
    except InvalidToken:
        raise SecretsKeyError("the stored credential does not decrypt with STEPFORGE_SECRETS_KEY (was the key "
                              "changed without keeping the old one?)") from None
