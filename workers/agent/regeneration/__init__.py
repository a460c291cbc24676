"""Regeneration: replay each verified script first, triage the red, heal drift, never heal a bug.

    regrounding.py  a recorded element found again by what it is
    walk.py         a verified script's operations carried out in the browser, drift healed on the way
    triage.py       replay first, then flake / drift / app_changed / broken_environment
    regenerate.py   the regeneration job (regenerate_scenarios): triage, generation of what changed, candidates;
                    values its drivers write (the CLI's suite folder, a service job's attempt folder)
    candidate.py    an app_changed scenario's regenerated script, compared with the kept one
    accept.py       `stepforge accept`: a person makes candidates the verified scripts of a suite folder
"""
