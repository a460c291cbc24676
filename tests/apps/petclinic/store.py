"""In-memory data for the PetClinic demo, seeded at import time and by reset()."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import date

PET_TYPES = ["bird", "cat", "dog", "hamster", "lizard", "snake"]


@dataclass
class Visit:
    date: date
    description: str
    reminder: bool = False
    notify_owner: bool = True


@dataclass
class Pet:
    id: int
    name: str
    birth_date: date
    type: str
    visits: list[Visit] = field(default_factory=list)


@dataclass
class Owner:
    id: int
    first_name: str
    last_name: str
    address: str
    city: str
    telephone: str
    pets: list[Pet] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass(frozen=True)
class Vet:
    first_name: str
    last_name: str
    specialties: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"


# (first, last, address, city, telephone, [(pet, born, type, [(visit date, description)])])
_SEED_OWNERS = [
    ("George", "Franklin", "110 W. Liberty St.", "Madison", "6085551023", [("Leo", "2010-09-07", "cat", [])]),
    ("Betty", "Davis", "638 Cardinal Ave.", "Sun Prairie", "6085551749", [("Basil", "2012-08-06", "hamster", [])]),
    ("Eduardo", "Rodriquez", "2693 Commerce St.", "McFarland", "6085558763",
     [("Rosy", "2011-04-17", "dog", []), ("Jewel", "2010-03-07", "dog", [])]),
    ("Harold", "Davis", "563 Friendly St.", "Windsor", "6085553198", [("Iggy", "2010-11-30", "lizard", [])]),
    ("Peter", "McTavish", "2387 S. Fair Way", "Madison", "6085552765", [("George", "2010-01-20", "snake", [])]),
    ("Jean", "Coleman", "105 N. Lake St.", "Monona", "6085552654",
     [("Samantha", "2012-09-04", "cat", [("2013-01-01", "rabies shot")]), ("Max", "2012-09-04", "cat", [])]),
]

VETS = [
    Vet("James", "Carter"),
    Vet("Helen", "Leary", ("radiology",)),
    Vet("Linda", "Douglas", ("dentistry", "surgery")),
    Vet("Rafael", "Ortega", ("surgery",)),
    Vet("Henry", "Stevens", ("radiology",)),
    Vet("Sharon", "Jenkins"),
]

owners: dict[int, Owner] = {}
lock = threading.RLock()
_next_ids = {"owner": 1, "pet": 1}


def reset() -> None:
    """Restore the seed data, including ids (owners 1-6, pets 1-8)."""
    with lock:
        owners.clear()
        pet_id = 0
        for owner_id, (first, last, address, city, phone, pets) in enumerate(_SEED_OWNERS, start=1):
            owner = Owner(owner_id, first, last, address, city, phone)
            for name, born, kind, visits in pets:
                pet_id += 1
                pet = Pet(pet_id, name, date.fromisoformat(born), kind)
                pet.visits = [Visit(date.fromisoformat(day), text) for day, text in visits]
                owner.pets.append(pet)
            owners[owner_id] = owner
        _next_ids.update(owner=len(owners) + 1, pet=pet_id + 1)


def find_owners(last_name_prefix: str) -> list[Owner]:
    prefix = last_name_prefix.casefold()
    with lock:
        return [o for o in owners.values() if o.last_name.casefold().startswith(prefix)]


def add_owner(**fields: str) -> Owner:
    with lock:
        owner = Owner(_next_ids["owner"], **fields)
        owners[owner.id] = owner
        _next_ids["owner"] += 1
        return owner


def add_pet(owner: Owner, name: str, birth_date: date, type: str) -> Pet:
    with lock:
        pet = Pet(_next_ids["pet"], name, birth_date, type)
        owner.pets.append(pet)
        _next_ids["pet"] += 1
        return pet


reset()
