"""Silent-fault library: fault classes, the injector interposer, the incident suite and validity studies.

Faults corrupt tool results the way production incidents did (a cached error page, a stale value,
another entity's record) while keeping the result's shape plausible. This package must not know
the monitor's rule list: the incident suite is authored from incidents and data shapes only.
"""
