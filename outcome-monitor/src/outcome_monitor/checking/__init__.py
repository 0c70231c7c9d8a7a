"""Rules -> checks: the rule classes, their paths and values, compiled per tool into check plans."""
