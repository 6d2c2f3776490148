"""The workspace's reference files: journey.md, rubric.md, the rule catalogue, routing table."""
