"""AgentDojo as a world: the ``agentdojo`` package's suites (workspace, travel, banking, slack) through the
world kit, unchanged. See README.md."""
