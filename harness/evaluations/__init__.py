"""Studies that combine the fault library and the monitor: incident validity, the implicit-payload
audit, and the organic fire rate on StableToolBench's response cache. Written apart from both.
"""
