"""Routes of the PetClinic demo app (server-rendered, in the spirit of Spring PetClinic)."""

from __future__ import annotations

import re
from datetime import date

from flask import Flask, abort, flash, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from . import changes, store

# form field id -> Owner attribute
OWNER_FIELDS = {"firstName": "first_name", "lastName": "last_name", "address": "address",
                "city": "city", "telephone": "telephone"}


class ShowcaseError(RuntimeError):
    """Raised on purpose by /oups."""


def _owner_or_404(owner_id: int) -> store.Owner:
    owner = store.owners.get(owner_id)
    if owner is None:
        abort(404, f"Owner {owner_id} not found")
    return owner


def _pet_or_404(owner: store.Owner, pet_id: int) -> store.Pet:
    for pet in owner.pets:
        if pet.id == pet_id:
            return pet
    abort(404, f"Pet {pet_id} not found")


def _parse_date(value: str, errors: dict[str, str], key: str, allow_future: bool = True) -> date | None:
    if not value:
        errors[key] = "is required"
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        day = None
    if day is None or (not allow_future and day > date.today()):
        errors[key] = "invalid date"
        return None
    return day


def create_app(stylesheet: str | None = None) -> Flask:
    """stylesheet: a URL every page links in its <head>, as apps link their CSS from a CDN."""
    app = Flask(__name__)
    app.secret_key = "petclinic-demo-not-a-secret"

    @app.context_processor
    def nav_menu() -> dict[str, str | None]:
        path = request.path
        menu = ("home" if path == "/" else "owners" if path.startswith("/owners")
                else "vets" if path.startswith("/vets") else "error" if path.startswith("/oups") else "")
        return {"menu": menu, "cdn_stylesheet": stylesheet, "changes": changes.active}

    @app.get("/site.css")
    def site_css():
        changes.stall_once()
        return "main { padding-bottom: 1rem; }", 200, {"Content-Type": "text/css"}

    @app.get("/")
    def welcome():
        return render_template("welcome.html")

    @app.get("/owners/find")
    def find_owners():
        return render_template("find_owners.html", last_name="", error=None)

    @app.get("/owners")
    def list_owners():
        last_name = request.args.get("lastName", "").strip()
        results = store.find_owners(last_name)
        if "removed-row" in changes.active:
            results = [owner for owner in results if owner.name != "Betty Davis"]
        if not results:
            error = f'lastName "{last_name}" has not been found'
            return render_template("find_owners.html", last_name=last_name, error=error)
        if len(results) == 1:
            return redirect(url_for("show_owner", owner_id=results[0].id))
        return render_template("owners.html", owners=results)

    @app.get("/owners/<int:owner_id>")
    def show_owner(owner_id: int):
        return render_template("owner.html", owner=_owner_or_404(owner_id))

    @app.route("/owners/new", methods=["GET", "POST"])
    def new_owner():
        return _owner_form(None)

    @app.route("/owners/<int:owner_id>/edit", methods=["GET", "POST"])
    def edit_owner(owner_id: int):
        return _owner_form(_owner_or_404(owner_id))

    def _owner_form(owner: store.Owner | None):
        errors: dict[str, str] = {}
        if request.method == "GET":
            values = {key: getattr(owner, attr) if owner else "" for key, attr in OWNER_FIELDS.items()}
        else:
            values = {key: request.form.get(key, "").strip() for key in OWNER_FIELDS}
            errors = {key: "must not be blank" for key, value in values.items() if not value}
            if values["telephone"] and not re.fullmatch(r"[0-9]{1,10}", values["telephone"]):
                errors["telephone"] = "Telephone must be numeric, up to 10 digits"
            if not errors:
                fields = {OWNER_FIELDS[key]: value for key, value in values.items()}
                if owner is None:
                    owner = store.add_owner(**fields)
                    flash("New Owner Created")
                else:
                    with store.lock:
                        for attr, value in fields.items():
                            setattr(owner, attr, value)
                    flash("Owner Values Updated")
                return redirect(url_for("show_owner", owner_id=owner.id))
        return render_template("owner_form.html", owner=owner, values=values, errors=errors)

    @app.route("/owners/<int:owner_id>/pets/new", methods=["GET", "POST"])
    def new_pet(owner_id: int):
        return _pet_form(_owner_or_404(owner_id), None)

    @app.route("/owners/<int:owner_id>/pets/<int:pet_id>/edit", methods=["GET", "POST"])
    def edit_pet(owner_id: int, pet_id: int):
        owner = _owner_or_404(owner_id)
        return _pet_form(owner, _pet_or_404(owner, pet_id))

    def _pet_form(owner: store.Owner, pet: store.Pet | None):
        errors: dict[str, str] = {}
        if request.method == "GET":
            values = {"name": pet.name, "birthDate": pet.birth_date.isoformat(), "type": pet.type} if pet \
                else {"name": "", "birthDate": "", "type": ""}
        else:
            values = {key: request.form.get(key, "").strip() for key in ("name", "birthDate", "type")}
            if not values["name"]:
                errors["name"] = "is required"
            if values["type"] not in store.PET_TYPES:
                errors["type"] = "is required"
            birth_date = _parse_date(values["birthDate"], errors, "birthDate", allow_future=False)
            if not errors:
                if pet is None:
                    store.add_pet(owner, values["name"], birth_date, values["type"])
                    flash("New Pet has been Added")
                else:
                    with store.lock:
                        pet.name, pet.birth_date, pet.type = values["name"], birth_date, values["type"]
                    flash("Pet details has been edited")
                return redirect(url_for("show_owner", owner_id=owner.id))
        return render_template("pet_form.html", owner=owner, pet=pet, values=values, errors=errors,
                               types=store.PET_TYPES, today=date.today().isoformat())

    @app.route("/owners/<int:owner_id>/pets/<int:pet_id>/visits/new", methods=["GET", "POST"])
    def new_visit(owner_id: int, pet_id: int):
        owner = _owner_or_404(owner_id)
        pet = _pet_or_404(owner, pet_id)
        values = {"date": date.today().isoformat(), "description": ""}
        errors: dict[str, str] = {}
        if request.method == "POST":
            values = {key: request.form.get(key, "").strip() for key in values}
            visit_date = _parse_date(values["date"], errors, "date")
            if not values["description"]:
                errors["description"] = "must not be blank"
            if not errors:
                with store.lock:
                    pet.visits.append(store.Visit(visit_date, values["description"],
                                                  reminder="reminder" in request.form,
                                                  notify_owner="notify" in request.form))
                flash("Your visit has been booked")
                return redirect(url_for("show_owner", owner_id=owner.id))
        return render_template("visit_form.html", owner=owner, pet=pet, values=values, errors=errors)

    @app.get("/vets")
    def list_vets():
        return render_template("vets.html", vets=store.VETS)

    @app.get("/oups")
    def oups():
        raise ShowcaseError("Expected: controller used to showcase what happens when an exception is thrown")

    @app.errorhandler(ShowcaseError)
    def showcase_error(exc: ShowcaseError):
        return render_template("error.html", message=str(exc)), 500

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return render_template("error.html", message=f"{exc.code} {exc.name}: {exc.description}"), exc.code

    @app.post("/__reset")
    def reset_data():
        store.reset()
        return "", 204

    @app.get("/__health")
    def health():
        return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}

    return app
