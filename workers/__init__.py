"""Workers: the agent pipeline and the processes that run it."""
