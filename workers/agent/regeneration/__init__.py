"""Regeneration: replay each verified script first, triage the red, heal drift, never heal a bug.

    verified.py     a suite folder's verified scripts (.stepforge/records/)
    regrounding.py  a recorded element found again by what it is
    walk.py         a verified script's operations carried out in the browser, drift healed on the way
    triage.py       replay first, then flake / drift / app_changed / broken_environment
    regenerate.py   a suite folder regenerated: triage, generation of what changed, the suite and its report
"""
