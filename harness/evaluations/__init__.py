"""Studies that combine the fault library and the monitor: incident validity, the implicit-payload
audit, and the organic fire rate on StableToolBench's response cache and on tau-bench's published
model trajectories (``organic``). Written apart from both.
"""
