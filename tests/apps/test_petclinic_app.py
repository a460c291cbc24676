"""Fast checks of the PetClinic demo app through Flask's test client (no browser)."""

from __future__ import annotations

import html
import re
from datetime import date, timedelta

import pytest

from tests.apps.petclinic import create_app, reset

pytestmark = pytest.mark.e2e  # its tier (tests/conftest.py)

NEW_OWNER = {"firstName": "Ada", "lastName": "Lovelace", "address": "12 Analytical Row",
             "city": "London", "telephone": "0123456789"}


@pytest.fixture
def client():
    reset()
    with create_app().test_client() as client:
        yield client
    reset()


def text(response) -> str:
    return html.unescape(response.get_data(as_text=True))


def field_error(page: str, field_id: str) -> str | None:
    """The help-inline message inside the form-group div of the given field, if any."""
    match = re.search(rf'<div class="form-group[^"]*">\s*<label class="control-label" for="{field_id}">'
                      rf'(?:(?!</div>).)*?<span class="help-inline">([^<]*)</span>\s*</div>', page, re.S)
    return match.group(1) if match else None


def test_single_match_redirects_to_owner_page(client):
    response = client.get("/owners?lastName=frank")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/owners/1")
    page = text(client.get("/owners/1"))
    assert "<h2>Owner Information</h2>" in page
    assert "George Franklin" in page and "110 W. Liberty St." in page and "2010-09-07" in page


def test_owner_page_has_one_edit_pet_link_per_pet(client):
    page = text(client.get("/owners/6"))
    assert page.count(">Edit Pet</a>") == 2 and page.count(">Add Visit</a>") == 2
    assert "rabies shot" in page and "2013-01-01" in page


def test_multi_match_lists_both_davises(client):
    response = client.get("/owners?lastName=davis")
    page = text(response)
    assert response.status_code == 200 and "<h2>Owners</h2>" in page
    assert "Betty Davis" in page and "Harold Davis" in page and "Franklin" not in page


def test_empty_search_lists_all_owners(client):
    page = text(client.get("/owners?lastName="))
    assert page.count('<td><a href="/owners/') == 6
    for name in ("George Franklin", "Betty Davis", "Eduardo Rodriquez", "Harold Davis",
                 "Peter McTavish", "Jean Coleman"):
        assert name in page
    assert "Rosy, Jewel" in page


def test_search_not_found(client):
    response = client.get("/owners?lastName=Xyz")
    page = text(response)
    assert response.status_code == 200 and "<h2>Find Owners</h2>" in page
    assert field_error(page, "lastName") == 'lastName "Xyz" has not been found'


def test_add_owner_blank_fields(client):
    response = client.post("/owners/new", data={**NEW_OWNER, "firstName": "", "city": " "})
    page = text(response)
    assert response.status_code == 200 and ">Add Owner</button>" in page
    assert field_error(page, "firstName") == "must not be blank"
    assert field_error(page, "city") == "must not be blank"
    assert field_error(page, "lastName") is None
    assert 'value="Lovelace"' in page and 'value="12 Analytical Row"' in page


@pytest.mark.parametrize("telephone", ["608-555-1023", "12345678901", "abc"])
def test_add_owner_rejects_bad_telephone(client, telephone):
    response = client.post("/owners/new", data={**NEW_OWNER, "telephone": telephone})
    page = text(response)
    assert response.status_code == 200
    assert field_error(page, "telephone") == "Telephone must be numeric, up to 10 digits"
    assert f'value="{telephone}"' in page


def test_add_owner_success_then_found_by_search(client):
    response = client.post("/owners/new", data=NEW_OWNER, follow_redirects=True)
    assert response.request.path == "/owners/7"
    assert "New Owner Created" in text(response) and "Ada Lovelace" in text(response)
    response = client.get("/owners?lastName=LOVE", follow_redirects=True)
    assert response.request.path == "/owners/7"


def test_edit_owner(client):
    page = text(client.get("/owners/2/edit"))
    assert 'value="Betty"' in page and ">Update Owner</button>" in page
    response = client.post("/owners/2/edit", data={**NEW_OWNER, "firstName": "Bette"}, follow_redirects=True)
    assert response.request.path == "/owners/2"
    assert "Owner Values Updated" in text(response) and "Bette Lovelace" in text(response)


def test_add_pet_validation_and_success(client):
    tomorrow = (date.today() + timedelta(days=1)).isoformat()
    page = text(client.post("/owners/1/pets/new", data={"name": "Tiger", "birthDate": tomorrow, "type": "cat"}))
    assert "<h2>New Pet</h2>" in page and field_error(page, "birthDate") == "invalid date"
    assert "Tiger" not in text(client.get("/owners/1"))
    page = text(client.post("/owners/1/pets/new", data={"name": "", "birthDate": "", "type": ""}))
    assert [field_error(page, f) for f in ("name", "birthDate", "type")] == ["is required"] * 3
    response = client.post("/owners/1/pets/new", data={"name": "Tiger", "birthDate": "2020-02-02", "type": "cat"},
                           follow_redirects=True)
    assert response.request.path == "/owners/1"
    assert "New Pet has been Added" in text(response) and "Tiger" in text(response)


def test_add_visit_appears_on_owner_page(client):
    page = text(client.get("/owners/6/pets/7/visits/new"))
    assert "<h2>New Visit</h2>" in page and f'value="{date.today().isoformat()}"' in page
    page = text(client.post("/owners/6/pets/7/visits/new", data={"date": "2024-05-01", "description": ""}))
    assert field_error(page, "description") == "must not be blank"
    response = client.post("/owners/6/pets/7/visits/new", data={"date": "2024-05-01", "description": "annual checkup"},
                           follow_redirects=True)
    page = text(response)
    assert response.request.path == "/owners/6"
    assert "Your visit has been booked" in page
    assert "<td>2024-05-01</td><td>annual checkup</td><td>no</td><td>no</td>" in page
    client.post("/owners/6/pets/7/visits/new",
                data={"date": "2024-06-01", "description": "booster", "reminder": "on", "notify": "on"})
    assert "<td>2024-06-01</td><td>booster</td><td>yes</td><td>yes</td>" in text(client.get("/owners/6"))


def test_reset_restores_seed(client):
    client.post("/owners/new", data=NEW_OWNER)
    client.post("/owners/1/pets/new", data={"name": "Tiger", "birthDate": "2020-02-02", "type": "cat"})
    assert client.post("/__reset").status_code == 204
    assert text(client.get("/owners?lastName=")).count('<td><a href="/owners/') == 6
    assert client.get("/owners/7").status_code == 404
    assert "Tiger" not in text(client.get("/owners/1"))
    response = client.post("/owners/new", data=NEW_OWNER)  # ids restart too
    assert response.headers["Location"].endswith("/owners/7")


def test_vets_and_health(client):
    page = text(client.get("/vets"))
    assert "<td>Linda Douglas</td><td>dentistry, surgery</td>" in page
    assert "<td>James Carter</td><td>none</td>" in page
    assert client.get("/__health").get_data(as_text=True) == "ok"


def test_oups_is_a_friendly_500(client):
    response = client.get("/oups")
    page = text(response)
    assert response.status_code == 500 and "<h2>Something happened...</h2>" in page
    assert "Expected: controller used to showcase what happens when an exception is thrown" in page
