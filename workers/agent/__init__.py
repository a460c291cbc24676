"""The agent: next action, grounding, execution and observation, script, verification."""
