"""One module per action kind; each declares ACTION (see workers.agent.actions.base)."""
