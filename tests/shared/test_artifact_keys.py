"""Keys that can name no artifact are refused as such, by the local store as by S3's rules: a folder is no
artifact, a key longer than a store allows is invalid, and the API never hands out a server path."""

from __future__ import annotations

import pytest

from api.routes.artifacts import download_url
from shared.artifacts import ArtifactNotFoundError, InvalidArtifactKeyError, check_key
from shared.artifacts.local import LocalArtifactStore


@pytest.fixture
def store(tmp_path) -> LocalArtifactStore:
    store = LocalArtifactStore(tmp_path / "artifacts")
    store.put_bytes("OWN-1/attempt-1/run.json", b"{}")
    return store


@pytest.mark.parametrize("key", ["OWN-1", "OWN-1/attempt-1", "OWN-1/attempt-1/run.json/deeper"])
def test_a_folder_or_a_path_through_a_file_is_no_artifact(store, key):
    with pytest.raises(ArtifactNotFoundError):
        store.get_bytes(key)


@pytest.mark.parametrize("key", ["a" * 5000, "x/" + "b" * 256, "/".join(["seg"] * 300)])
def test_a_key_longer_than_a_store_allows_is_invalid(key):
    with pytest.raises(InvalidArtifactKeyError, match="too long"):
        check_key(key)


def test_the_longest_keys_a_store_allows_are_fine():
    assert check_key("c" * 255) == "c" * 255
    assert check_key("/".join(["d" * 200] * 5)) == "/".join(["d" * 200] * 5)


def test_a_local_store_is_downloaded_through_the_api_never_by_its_server_path(store):
    key = "OWN-1/attempt-1/run.json"
    assert store.presigned_url(key).startswith("file://")  # what the CLI shows a person on this machine
    assert download_url(store, key, "/v1/batches/1/jobs/2/artifacts/" + key) == "/v1/batches/1/jobs/2/artifacts/" + key
